/**
 * Settings: what gifts are credited to (campaigns, committees, donation accounts and their
 * limits, elections), the custom fields contacts carry, API keys for local scripts, CSV
 * import and export, and sync. One section at a time, addressed as #/settings/<section>,
 * chosen from a list that Tab and Enter (or the arrow keys) walk.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { ScreenProps } from '../../router.ts';
import { hrefFor } from '../../router.ts';
import { Screen } from '../../ui/index.ts';
import { useRole } from '../../session/role.ts';
import { sectionFor, sectionsFor } from './sections.tsx';
import './settings.css';
import './sync.css';

export function SettingsScreen({ route }: ScreenProps) {
  const sections = sectionsFor(useRole());
  const current = sectionFor(route.rest[0], sections);
  const Section = current.component;
  const contentRef = useRef<HTMLDivElement>(null);
  const shownSection = useRef(current.id);

  const focusSection = () => {
    const el = contentRef.current;
    (el?.querySelector<HTMLElement>('[data-autofocus]') ?? el?.querySelector<HTMLElement>('h2'))?.focus();
  };

  // Choosing a section takes the focus into it (its first field, else its heading), also when
  // it is the one already shown; the first arrival on Settings is the shell's to focus. At once,
  // once React has put the section on screen, not a frame later: what a fast typist types after
  // Enter on a section's link belongs in its first field, not on the link.
  useEffect(() => {
    if (shownSection.current === current.id) return;
    shownSection.current = current.id;
    focusSection();
  }, [current.id]);

  // Up/Down move between the section links (Tab still works as everywhere).
  const onNavKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>('a')];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (at < 0) return;
    e.preventDefault();
    links[(at + (e.key === 'ArrowDown' ? 1 : links.length - 1)) % links.length]?.focus();
  };

  return (
    <Screen title="Settings" className="settings">
      <div className="settings-layout">
        <nav aria-label="Settings sections" className="settings-nav" onKeyDown={onNavKey}>
          <ul>
            {sections.map((s) => (
              <li key={s.id}>
                <a
                  href={hrefFor('settings', s.id)}
                  aria-current={s.id === current.id ? 'page' : undefined}
                  onClick={s.id === current.id ? focusSection : undefined}
                >
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-content" ref={contentRef}>
          <Section key={current.id} />
        </div>
      </div>
    </Screen>
  );
}
