import type { ReactNode } from 'react';

/** An inline stroke icon on a 24×24 grid; it takes the current text colour. */
export function Icon({
  size = 16,
  label,
  className,
  children,
}: {
  size?: number;
  /** Accessible name; decorative icons leave it out and are hidden from assistive tech. */
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label === undefined ? undefined : 'img'}
      aria-label={label}
      aria-hidden={label === undefined ? true : undefined}
      focusable="false"
    >
      {children}
    </svg>
  );
}
