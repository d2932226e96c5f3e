import { forwardRef, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { matchRoute, type Route } from './routes';

/**
 * A small history router: the location is an external store (pushState/popstate), pages are
 * chosen from routes.ts. Enough for a console whose URLs are few and flat.
 */
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
window.addEventListener('popstate', notify);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => window.location.pathname + window.location.search;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
  window.scrollTo(0, 0);
}

/** The current location as pathname + search; re-renders on every navigation. */
export function useLocation(): string {
  return useSyncExternalStore(subscribe, snapshot);
}

export function useRoute(): Route {
  const location = useLocation();
  const url = new URL(location, window.location.origin);
  return matchRoute(url.pathname, url.search);
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string };

/** An anchor that navigates in place (a modified click or a middle click still opens a new tab). */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link({ href, onClick, ...rest }, ref) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(href);
  };
  return <a ref={ref} href={href} onClick={handle} {...rest} />;
});
