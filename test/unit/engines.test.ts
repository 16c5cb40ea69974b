/**
 * The Node floor the README and package.json promise is one every installed package accepts:
 * `npm install` on that Node prints no EBADENGINE warning. Reads package-lock.json (what
 * `npm ci` installs), so a dependency bump that asks for a newer Node fails here, before a
 * volunteer's install warns.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// semver is installed (npm's own range logic, a dependency of several packages) but has no
// types here; only these two functions are used.
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
};

interface LockPackage {
  version?: string;
  engines?: Record<string, string> | string[];
  optional?: boolean;
}

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, LockPackage>;
};
const readme = fs.readFileSync('README.md', 'utf8');

/** Every locked package whose `engines.node` refuses `version`, as "name@version wants range". */
function refusing(packages: Record<string, LockPackage>, version: string): string[] {
  const out: string[] = [];
  for (const [where, p] of Object.entries(packages)) {
    if (where === '') continue; // the project itself
    const range = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
    if (typeof range !== 'string') continue;
    if (!semver.satisfies(version, range, { includePrerelease: true }))
      out.push(`${where.replace(/^.*node_modules\//, '')}@${p.version ?? '?'} wants node ${range}`);
  }
  return out;
}

describe('the Node floor', () => {
  const floor = semver.minVersion(pkg.engines.node)?.version;

  it('is the one the README promises', () => {
    expect(floor).toBeDefined();
    const [major, minor] = (floor ?? '').split('.');
    expect(readme).toContain(`Node ${major}.${minor} or newer`);
  });

  it('is accepted by every package in package-lock.json (no engine warning at npm install)', () => {
    expect(refusing(lock.packages, floor ?? '0.0.0')).toEqual([]);
  });

  it('would catch a dependency that asks for more (cookie 2, which light-my-request 6.8 pulls in)', () => {
    const packages: Record<string, LockPackage> = {
      'node_modules/light-my-request/node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
      'node_modules/cookie': { version: '1.0.2', engines: { node: '>=18' } },
      'node_modules/fastify': { version: '5.6.0' },
    };
    expect(refusing(packages, floor ?? '0.0.0')).toEqual(['cookie@2.0.2 wants node >=22']);
  });
});
