/**
 * Signing in at a shared server (HQ): a person's email and password traded for a session
 * (POST /api/v1/sign-in), kept for this tab like a link's; and the page of a set-password link
 * (`#set-password=…`), which sets the password once and then offers the sign-in.
 */
import { type FormEvent, useState } from 'react';
import { AppSession } from '#shared/schemas/session.ts';
import { PASSWORD_MIN } from '#shared/schemas/people.ts';
import { Button, FormError, TextField } from '../ui/index.ts';

interface Answer {
  status: number;
  body: unknown;
}

async function post(path: string, body: unknown): Promise<Answer | null> {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      cache: 'no-store',
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return null;
  }
}

function messageOf(a: Answer | null, fallback: string): string {
  if (!a) return 'GiftDesk is not answering at this address. Is it still running?';
  const b = a.body;
  return typeof b === 'object' && b && 'message' in b && typeof b.message === 'string' ? b.message : fallback;
}

export function SignInForm({
  onSignedIn,
  email: firstEmail = '',
}: {
  onSignedIn: (session: AppSession) => void;
  email?: string;
}) {
  const [email, setEmail] = useState(firstEmail);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const a = await post('/api/v1/sign-in', { email, password });
    setBusy(false);
    if (a?.status === 201) {
      const s = AppSession.safeParse(a.body);
      if (s.success) return onSignedIn(s.data);
    }
    setPassword('');
    setError(messageOf(a, 'Signing in did not work. Try again.'));
  };
  return (
    <form className="sign-in" aria-label="Sign in" onSubmit={(e) => void submit(e)}>
      <TextField
        label="Email"
        type="email"
        autoComplete="username"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormError message={error} />
      <Button tone="primary" type="submit" busy={busy}>
        Sign in
      </Button>
    </form>
  );
}

export function SetPasswordForm({ token, onDone }: { token: string; onDone: (email: string) => void }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (password !== again) return setError('The two passwords are not the same.');
    setBusy(true);
    setError(null);
    const a = await post('/api/v1/set-password', { token, password });
    setBusy(false);
    const b = a?.body;
    if (a?.status === 200 && typeof b === 'object' && b && 'email' in b && typeof b.email === 'string')
      return onDone(b.email);
    setError(messageOf(a, 'The password was not set. Try again.'));
  };
  return (
    <form className="sign-in" aria-label="Set your password" onSubmit={(e) => void submit(e)}>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN}
        hint={`At least ${PASSWORD_MIN} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <TextField
        label="The same password again"
        type="password"
        autoComplete="new-password"
        required
        value={again}
        onChange={(e) => setAgain(e.target.value)}
      />
      <FormError message={error} />
      <Button tone="primary" type="submit" busy={busy}>
        Set password
      </Button>
    </form>
  );
}
