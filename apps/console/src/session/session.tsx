import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { createApi, type Api, type Credentials } from '../api/client';

/**
 * Who is signed in: a personal access token (and optionally a namespace) kept in sessionStorage,
 * so it lasts as long as the tab and is never written to disk by the console.
 */
const TOKEN = 'docintel.token';
const NAMESPACE = 'docintel.namespace';

function load(): Credentials | null {
  const token = sessionStorage.getItem(TOKEN);
  return token ? { token, namespace: sessionStorage.getItem(NAMESPACE) } : null;
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
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(NAMESPACE);
    setCredentials(null);
    setNotice(why ?? null);
  }, []);

  const signIn = useCallback((c: Credentials) => {
    sessionStorage.setItem(TOKEN, c.token);
    if (c.namespace) sessionStorage.setItem(NAMESPACE, c.namespace);
    else sessionStorage.removeItem(NAMESPACE);
    setNotice(null);
    setCredentials(c);
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
