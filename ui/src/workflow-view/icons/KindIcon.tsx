import type { ReactNode } from 'react';
import { Icon } from '../../icons/Icon';
import type { KindIconName } from '../look/handlerLooks';

const GLYPHS: Record<KindIconName, ReactNode> = {
  play: <path d="M8 5.5v13l10-6.5z" fill="currentColor" />,
  stop: <rect x="6.5" y="6.5" width="11" height="11" rx="2" fill="currentColor" />,
  sparkle: (
    <>
      <path d="M11 3.5l1.8 5.2 5.2 1.8-5.2 1.8L11 17.5l-1.8-5.2L4 10.5l5.2-1.8z" />
      <path d="M18 15.5l.8 2 2 .8-2 .8-.8 2-.8-2-2-.8 2-.8z" />
    </>
  ),
  message: (
    <>
      <path d="M5 4.5h14A1.5 1.5 0 0 1 20.5 6v9a1.5 1.5 0 0 1-1.5 1.5h-7.5L7 20v-3.5H5A1.5 1.5 0 0 1 3.5 15V6A1.5 1.5 0 0 1 5 4.5z" />
      <path d="M8 9h8M8 12.5h5" />
    </>
  ),
  terminal: (
    <>
      <rect x="3" y="4.5" width="18" height="15" rx="2" />
      <path d="M7 9.5l3 2.5-3 2.5M12.5 15H17" />
    </>
  ),
  person: (
    <>
      <circle cx="12" cy="8" r="3.5" />
      <path d="M5 20a7 7 0 0 1 14 0" />
    </>
  ),
  branch: (
    <>
      <path d="M12 3v6M12 9l-6 7M12 9l6 7" />
      <circle cx="6" cy="18.5" r="2" />
      <circle cx="18" cy="18.5" r="2" />
    </>
  ),
  fork: (
    <>
      <path d="M12 3v5M5 19v-7.5M12 19V8M19 19v-7.5M5 11.5h14" />
      <path d="M3 17l2 2.5 2-2.5M10 17l2 2.5 2-2.5M17 17l2 2.5 2-2.5" />
    </>
  ),
  join: (
    <>
      <path d="M5 4v7.5M12 4v12M19 4v7.5M5 11.5h14M12 16v5" />
      <path d="M10 18.5l2 2.5 2-2.5" />
    </>
  ),
  hourglass: (
    <>
      <path d="M6.5 3.5h11M6.5 20.5h11" />
      <path d="M8 3.5c0 4.5 8 4.5 8 8.5s-8 4-8 8.5M16 3.5c0 4.5-8 4.5-8 8.5s8 4 8 8.5" />
    </>
  ),
  loop: (
    <>
      <path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3" />
      <path d="M19.5 4v4h-4" />
      <circle cx="12" cy="12" r="1.6" fill="currentColor" />
    </>
  ),
};

/** The icon of a handler kind. */
export function KindIcon({ name, size = 16 }: { name: KindIconName; size?: number }) {
  return <Icon size={size}>{GLYPHS[name]}</Icon>;
}
