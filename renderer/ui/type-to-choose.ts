/**
 * Typing a choice's name in a closed select chooses it ("cash" → Cash, "ch" → Check, "cr" →
 * Credit card), at once and the same on every machine: no timer decides where one word ends
 * (the browser's own type-ahead has one, and a headless or busy window loses keys to it).
 * What was typed since the select got the focus is matched against the start of each choice's
 * label, accents and case aside; a letter that matches nothing after it starts a new word, and
 * the same letter again moves on to the next choice starting with it.
 */
import type { KeyboardEvent } from 'react';
import { typedChoice } from './typed-choice.ts';

/**
 * The select's keydown and focus handlers for typing a choice's name; `typed` holds what was
 * typed since the focus came (a ref the select keeps).
 */
export function typeToChooseHandlers(typed: { current: string }) {
  return {
    onFocus: () => {
      typed.current = '';
    },
    onKeyDown: (e: KeyboardEvent<HTMLSelectElement>) => {
      if (e.key.length !== 1 || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === ' ' && typed.current === '') return; // Space opens the list
      const el = e.currentTarget;
      const labels = [...el.options].map((o) => (o.disabled ? null : o.label));
      const hit = typedChoice(labels, el.selectedIndex, typed.current, e.key);
      e.preventDefault();
      if (!hit) {
        typed.current = '';
        return;
      }
      typed.current = hit.typed;
      if (hit.index === el.selectedIndex) return;
      el.selectedIndex = hit.index;
      // As a choice made in the list: the form (react-hook-form's register, React's onChange) hears of it.
      el.dispatchEvent(new Event('change', { bubbles: true }));
    },
  };
}
