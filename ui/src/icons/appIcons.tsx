import { Icon } from './Icon';

type IconProps = { size?: number; label?: string; className?: string };

export function FolderOpenIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M3 7.5V18a1.5 1.5 0 0 0 1.5 1.5h13.2a1.5 1.5 0 0 0 1.45-1.1L21 11.5H7.2a1.5 1.5 0 0 0-1.44 1.08L3.6 19" />
      <path d="M3 7.5V6a1.5 1.5 0 0 1 1.5-1.5h4l2 2h6A1.5 1.5 0 0 1 18 8v3.5" />
    </Icon>
  );
}

export function FileGraphIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M14 3H6.5A1.5 1.5 0 0 0 5 4.5v15A1.5 1.5 0 0 0 6.5 21h11a1.5 1.5 0 0 0 1.5-1.5V8z" />
      <path d="M14 3v5h5" />
      <circle cx="9.5" cy="12" r="1.3" />
      <circle cx="14.5" cy="16.5" r="1.3" />
      <path d="M10.5 13l3 2.5" />
    </Icon>
  );
}

export function CloseIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M6 6l12 12M18 6L6 18" />
    </Icon>
  );
}

export function ArrowRightIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </Icon>
  );
}

/** Heddle's mark: warp threads passing through a heddle eye. */
export function HeddleLogo({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="22" height="22" rx="6" fill="var(--accent)" />
      <path d="M7 5v14M17 5v14" stroke="var(--accent-contrast)" strokeWidth="1.8" strokeLinecap="round" />
      <path d="M12 5v4.2M12 14.8V19" stroke="var(--accent-contrast)" strokeWidth="1.8" strokeLinecap="round" />
      <ellipse cx="12" cy="12" rx="2.2" ry="2.8" fill="none" stroke="var(--accent-contrast)" strokeWidth="1.8" />
    </svg>
  );
}
