import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createApi, type Api, type Credentials } from '../api/client';

/**
 * Who is signed in: a personal access token (and optionally a namespace) kept in the browser's
 * localStorage for this origin, so a new tab, a bookmark or a Ctrl+click on a citation opens signed
 * in, until sign-out. The token's own expiry still holds: the first request it is refused with (401)
 * signs out every tab. Signing in or out in one tab does the same in the others (storage events).
 */
const TOKEN = 'docintel.token';
const NAMESPACE = 'docintel.namespace';

function load(): Credentials | null {
  const token = localStorage.getItem(TOKEN);
  return token ? { token, namespace: localStorage.getItem(NAMESPACE) } : null;
}

interface SessionValue {
  credentials: Credentials | null;
  /** The API client for the signed-in token; null when signed out. */
  api: Api | null;
  /** Why the last session ended, shown on the sign-in page. */
  notice: string | null;
  signIn(credentials: Credentials): void;
  signOut(notice?: string): void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [credentials, setCredentials] = useState<Credentials | null>(load);
  const [notice, setNotice] = useState<string | null>(null);

  const signOut = useCallback((why?: string) => {
    localStorage.removeItem(TOKEN);
    localStorage.removeItem(NAMESPACE);
    setCredentials(null);
    setNotice(why ?? null);
  }, []);

  const signIn = useCallback((c: Credentials) => {
    localStorage.setItem(TOKEN, c.token);
    if (c.namespace) localStorage.setItem(NAMESPACE, c.namespace);
    else localStorage.removeItem(NAMESPACE);
    setNotice(null);
    setCredentials(c);
  }, []);

  // Another tab signed in (as someone else, perhaps) or out: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== null && e.key !== TOKEN && e.key !== NAMESPACE) return;
      const now = load();
      setCredentials((was) => (was?.token === now?.token && was?.namespace === now?.namespace ? was : now));
      if (!now) setNotice('You signed out in another tab.');
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const api = useMemo(
    () =>
      credentials
        ? createApi(credentials, () => signOut('Your token was refused (401): it may have expired or been revoked. Sign in again.'))
        : null,
    [credentials, signOut],
  );

  const value = useMemo(() => ({ credentials, api, notice, signIn, signOut }), [credentials, api, notice, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The API client of a page that is only shown when signed in. */
export function useApi(): Api {
  const { api } = useSession();
  if (!api) throw new Error('useApi while signed out');
  return api;
}
