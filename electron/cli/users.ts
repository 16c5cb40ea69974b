/**
 * `giftdesk user …`: the people who sign in to a shared server (HQ) — add (with a password
 * from stdin, or a one-time link to set one, printed once), list, password-link (a new link),
 * set-role, disable. The last enabled administrator of an account cannot be demoted or disabled
 * (the domain refuses it; the command prints the sentence and exits 1).
 */
import type { Command } from 'commander';
import {
  PASSWORD_LINK_TTL_MS,
  type User,
  addUser,
  issuePasswordToken,
  listUsers,
  updateUser,
  userByEmail,
} from '../domain/accounts/index.ts';
import { type CommonOptions, common, withAccount } from './context.ts';
import { CliError, print } from './output.ts';

const ROLE_HELP = 'volunteer | coordinator | treasurer | administrator';
const DEFAULT_APP_URL = 'http://127.0.0.1:4870';

/** The password given on stdin: everything up to the end, without the line's ending. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliError(
      '--password-stdin reads the password from a pipe, e.g.: printf %s "$PW" | giftdesk user add …',
      64,
      'usage',
    );
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The address a person opens to set their password. */
export function setPasswordLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/#set-password=${token}`;
}

const line = (u: User) =>
  `${u.id}  ${u.email}  ${u.name}  ${u.role}${u.disabledAt ? `  disabled ${u.disabledAt}` : ''}${u.passwordSet ? '' : '  (no password yet)'}${u.lastSignInAt ? `  last signed in ${u.lastSignInAt}` : ''}`;

export function registerUserCommands(program: Command): void {
  const user = program.command('user').description('people who sign in to this server (HQ staff)');

  common(
    user
      .command('add')
      .description(
        'add a person; without --password-stdin a one-time link to set their password is printed once',
      )
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--email <email>', 'their email (what they sign in with)')
      .requiredOption('--name <name>', 'their name')
      .requiredOption('--role <role>', ROLE_HELP)
      .option('--password-stdin', 'read their password from stdin instead of printing a link')
      .option('--app-url <url>', "the server's address as people open it, for the link", DEFAULT_APP_URL),
  ).action(
    async (
      o: CommonOptions & {
        account: string;
        email: string;
        name: string;
        role: string;
        passwordStdin?: boolean;
        appUrl: string;
      },
    ) => {
      const password = o.passwordStdin ? await passwordFromStdin() : undefined;
      const r = await withAccount(o, async (ctx) => {
        const u = await addUser(ctx, {
          accountId: o.account,
          email: o.email,
          name: o.name,
          role: o.role,
          password,
        });
        if (password !== undefined) return { user: u, link: null };
        const t = await issuePasswordToken(ctx, o.account, u.id);
        return { user: u, link: { url: setPasswordLink(o.appUrl, t.token), expiresAt: t.expiresAt } };
      });
      const hours = PASSWORD_LINK_TTL_MS / 3_600_000;
      print(
        o,
        { ...r.user, setPasswordLink: r.link?.url ?? null, setPasswordExpiresAt: r.link?.expiresAt ?? null },
        () =>
          r.link
            ? `Added ${r.user.email} (${r.user.role}), ${r.user.id}.\nSet-password link (works once, for ${hours} hours; shown only now):\n${r.link.url}`
            : `Added ${r.user.email} (${r.user.role}), ${r.user.id}, with the password given.`,
      );
    },
  );

  common(
    user.command('list').description("the account's people").requiredOption('--account <id>', 'account id'),
  ).action(async (o: CommonOptions & { account: string }) => {
    const data = await withAccount(o, (ctx) => listUsers(ctx, o.account));
    print(o, { data }, () => (data.length ? data.map(line).join('\n') : 'No people yet.'));
  });

  common(
    user
      .command('password-link')
      .description('a new one-time link to set a password (a lost link, a forgotten password); printed once')
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--email <email>', 'their email')
      .option('--app-url <url>', "the server's address as people open it, for the link", DEFAULT_APP_URL),
  ).action(async (o: CommonOptions & { account: string; email: string; appUrl: string }) => {
    const r = await withAccount(o, async (ctx) => {
      const u = await userByEmail(ctx, o.account, o.email);
      return { user: u, link: await issuePasswordToken(ctx, o.account, u.id) };
    });
    const url = setPasswordLink(o.appUrl, r.link.token);
    print(
      o,
      { id: r.user.id, email: r.user.email, setPasswordLink: url, setPasswordExpiresAt: r.link.expiresAt },
      () => `Set-password link for ${r.user.email} (works once, for 24 hours; shown only now):\n${url}`,
    );
  });

  common(
    user
      .command('set-role')
      .description("change a person's role (from their next request)")
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--email <email>', 'their email')
      .requiredOption('--role <role>', ROLE_HELP),
  ).action(async (o: CommonOptions & { account: string; email: string; role: string }) => {
    const u = await withAccount(o, async (ctx) => {
      const found = await userByEmail(ctx, o.account, o.email);
      return updateUser(ctx, o.account, found.id, { role: o.role });
    });
    print(o, u, () => `${u.email} is now ${u.role}.`);
  });

  common(
    user
      .command('disable')
      .description('disable a person: they cannot sign in, and their sessions end at once')
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--email <email>', 'their email'),
  ).action(async (o: CommonOptions & { account: string; email: string }) => {
    const u = await withAccount(o, async (ctx) => {
      const found = await userByEmail(ctx, o.account, o.email);
      return updateUser(ctx, o.account, found.id, { disabled: true });
    });
    print(o, u, () => `${u.email} is disabled; their sessions have ended.`);
  });
}
