/**
 * The giftdesk command line: the contract scripts and tests rely on. Every command takes
 * --data-dir and --json; errors go to stderr with a non-zero exit.
 */
import { ROLES, type Role } from '#shared/schemas/roles.ts';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { createAccount, createApiKey, listApiKeys, revokeApiKey } from '../domain/accounts/index.ts';
import { archiveCustomField, createCustomField, retireCustomFieldOption } from '../domain/contacts/index.ts';
import { listFlags } from '../domain/limits/index.ts';
import { createCampaign, createCommittee, createDonationAccount } from '../domain/reference/index.ts';
import { type CommonOptions, collect, common, dollarsOption, withAccount, withContext } from './context.ts';
import { registerDataCommands } from './data-commands.ts';
import { registerHubCommands } from './hub.ts';
import { registerLettersCommand } from './letters.ts';
import { CliError, print, reportError } from './output.ts';
import { registerServe } from './serve.ts';
import { registerSyncPullCommands } from './sync-pull.ts';
import { registerSyncPushCommands } from './sync-push.ts';
import { registerHubJoin } from './hub-join.ts';
import { registerHubLeave } from './hub-leave.ts';
import { registerUserCommands } from './users.ts';
import { registerAuditCommands } from './audit.ts';

const json = process.argv.includes('--json');
const program = new Command('giftdesk')
  .description('GiftDesk: offline-first gift and donor entry, with a local /api/v1 and sync to HQ')
  .configureOutput({
    // A usage error is reported once, below, in the same form as every other error.
    outputError: () => undefined,
    // With --json, stderr carries only the JSON error (no help text for a missing subcommand).
    writeErr: (text) => {
      if (!json) process.stderr.write(text);
    },
  })
  .exitOverride()
  .enablePositionalOptions(); // a parent's options only before its subcommand (giftdesk sync --account X vs sync pull --account X)

/** Commander's "error: unknown option '--x'" as a sentence with a way forward. */
function usageError(err: CommanderError): CliError {
  const message =
    err.code === 'commander.help'
      ? 'a command is missing (run with --help to see the commands)'
      : `${err.message.replace(/^error: /, '')} (run with --help for usage)`;
  return new CliError(message, 64, 'usage');
}

registerServe(program);

const account = program.command('account').description('organisation accounts');
common(
  account.command('create').description('create an account').requiredOption('--name <name>', 'account name'),
).action(async (o: CommonOptions & { name: string }) => {
  const r = await withContext(o, (ctx) => createAccount(ctx, o.name), { create: true });
  print(o, r, () => `Created account ${r.id}`);
});

/** --role: one of the roles, named in the refusal when not. */
function roleOption(value: string): Role {
  const role = ROLES.find((r) => r === value.trim().toLowerCase());
  if (!role) throw new InvalidArgumentError(`"${value}" is not a role (one of: ${ROLES.join(', ')}).`);
  return role;
}

const key = program.command('key').description('API keys for scripts');
common(
  key
    .command('create')
    .description('create an API key (the secret is shown once)')
    .requiredOption('--account <id>', 'account id')
    .option('--label <label>', 'what the key is for')
    .option('--role <role>', `what the key may do: ${ROLES.join(', ')}`, roleOption, 'administrator'),
).action(async (o: CommonOptions & { account: string; label?: string; role: Role }) => {
  const r = await withAccount(o, (ctx) => createApiKey(ctx, o.account, o.label, undefined, o.role));
  print(
    o,
    r,
    () =>
      `Key id:  ${r.keyId}\nRole:    ${r.role}\nSecret:  ${r.secret}\n(The secret is shown only now; it is stored as a hash.)`,
  );
});
common(
  key
    .command('list')
    .description("list an account's keys with their roles (never their secrets)")
    .requiredOption('--account <id>', 'account id'),
).action(async (o: CommonOptions & { account: string }) => {
  const keys = await withAccount(o, (ctx) => listApiKeys(ctx, o.account));
  print(o, { data: keys }, () =>
    keys.length === 0
      ? 'No keys'
      : keys
          .map(
            (k) =>
              `${k.keyId}  ${k.role.padEnd(13)}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'live'}${k.session ? `  (${k.session} session)` : ''}${k.label ? `  ${k.label}` : ''}`,
          )
          .join('\n'),
  );
});
common(
  key.command('revoke').description('revoke an API key').requiredOption('--key <keyId>', 'key id'),
).action(async (o: CommonOptions & { key: string }) => {
  const r = await withContext(o, (ctx) => revokeApiKey(ctx, o.key));
  print(o, r, () => `Revoked ${r.keyId}`);
});

common(
  program
    .command('campaign')
    .description('campaigns')
    .command('create')
    .description('create a campaign')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'campaign name')
    .option('--donation-account <id>', 'a donation account of the campaign (repeatable)', collect, []),
).action(async (o: CommonOptions & { account: string; name: string; donationAccount: string[] }) => {
  const r = await withAccount(o, (ctx) =>
    createCampaign(ctx, { accountId: o.account, name: o.name, donationAccountIds: o.donationAccount }),
  );
  print(o, { id: r.id }, () => `Created campaign ${r.id} (${r.name})`);
});

common(
  program
    .command('committee')
    .description('committees')
    .command('create')
    .description('create a committee')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'committee name'),
).action(async (o: CommonOptions & { account: string; name: string }) => {
  const r = await withAccount(o, (ctx) => createCommittee(ctx, { accountId: o.account, name: o.name }));
  print(o, { id: r.id }, () => `Created committee ${r.id} (${r.name})`);
});

common(
  program
    .command('donation-account')
    .description('donation accounts and their contribution limits')
    .command('create')
    .description('create a donation account')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'donation account name')
    .option('--per-election <amount>', 'limit per donor per election, dollars', dollarsOption)
    .option('--per-cycle <amount>', 'limit per donor per two-year cycle, dollars', dollarsOption)
    .option('--per-year <amount>', 'limit per donor per calendar year, dollars', dollarsOption)
    .option('--per-donor <amount>', 'lifetime limit per donor, dollars', dollarsOption),
).action(
  async (
    o: CommonOptions & {
      account: string;
      name: string;
      perElection?: number;
      perCycle?: number;
      perYear?: number;
      perDonor?: number;
    },
  ) => {
    const r = await withAccount(o, (ctx) =>
      createDonationAccount(ctx, {
        accountId: o.account,
        name: o.name,
        perElection: o.perElection,
        perCycle: o.perCycle,
        perYear: o.perYear,
        perDonor: o.perDonor,
      }),
    );
    print(o, { id: r.id }, () => `Created donation account ${r.id} (${r.name})`);
  },
);

const field = program.command('field').description('custom field definitions');
common(
  field
    .command('create')
    .description('define a custom field')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'field name')
    .requiredOption('--type <type>', 'text | number | date | picklist')
    .option('--option <value>', 'a pick-list option (repeatable)', collect, []),
).action(async (o: CommonOptions & { account: string; name: string; type: string; option: string[] }) => {
  const r = await withAccount(o, (ctx) =>
    createCustomField(ctx, { accountId: o.account, name: o.name, type: o.type, options: o.option }),
  );
  print(o, { id: r.id }, () => `Created ${r.type} field "${r.name}" (${r.id})`);
});
common(
  field
    .command('retire-option')
    .description('retire a pick-list option')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'field name')
    .requiredOption('--option <value>', 'option'),
).action(async (o: CommonOptions & { account: string; name: string; option: string }) => {
  const r = await withAccount(o, (ctx) => retireCustomFieldOption(ctx, o.account, o.name, o.option));
  print(o, r, () => `Retired option "${o.option}" of "${r.name}"`);
});
common(
  field
    .command('archive')
    .description('archive a custom field')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'field name'),
).action(async (o: CommonOptions & { account: string; name: string }) => {
  const r = await withAccount(o, (ctx) => archiveCustomField(ctx, o.account, o.name));
  print(o, r, () => `Archived "${r.name}"`);
});

common(
  program
    .command('flags')
    .description('gifts flagged over a contribution limit (D6)')
    .requiredOption('--account <id>', 'account id')
    .option('--all', 'include resolved flags'),
).action(async (o: CommonOptions & { account: string; all?: boolean }) => {
  const flagged = await withAccount(o, (ctx) => listFlags(ctx, o.account, o.all ? 'all' : 'open'));
  print(o, { flagged }, () =>
    flagged.length === 0
      ? 'No gifts are flagged.'
      : flagged
          .map(
            (f) =>
              `${f.donationId}  ${f.contactName}  $${f.donationAmount}  over ${f.limitKind} limit $${f.limit} in ${f.window} (donor total $${f.donorTotal})  [${f.state}]`,
          )
          .join('\n'),
  );
});

registerDataCommands(program);
registerLettersCommand(program);
registerUserCommands(program);
registerAuditCommands(program);

const hub = program
  .command('hub')
  .description(
    'an event hub: pairing codes, stations, joining one (or a replacement), leaving, the close-out',
  );
registerHubCommands(hub);
registerHubJoin(hub);
registerHubLeave(hub);

const sync = program.command('sync').description('sync with HQ: push, pull, reference links');
registerSyncPullCommands(sync);
registerSyncPushCommands(sync);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : reportError(usageError(err), json);
  } else {
    process.exitCode = reportError(err, json);
  }
}
