/**
 * The threads of this process and their nice values, read from /proc (Linux only): what the
 * letters' priority tests watch while a run reads and draws.
 */
import fs from 'node:fs';

/** Each live thread's id and nice value (/proc/self/task/<tid>/stat, field 19). */
export function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nices;
}
