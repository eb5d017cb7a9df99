import { Icon } from '../icons/Icon';
import type { Severity } from '../generated/Severity';

/** Error: a circle with a cross; warning: a triangle with a bang; info: a circle with an i. */
export function SeverityIcon({ severity, size = 16 }: { severity: Severity; size?: number }) {
  switch (severity) {
    case 'error':
      return (
        <Icon size={size} label="Error" className="severity-icon severity-error">
          <circle cx="12" cy="12" r="9.5" fill="currentColor" stroke="none" />
          <path d="M8.8 8.8l6.4 6.4M15.2 8.8l-6.4 6.4" stroke="var(--severity-glyph)" strokeWidth={2.4} />
        </Icon>
      );
    case 'warning':
      return (
        <Icon size={size} label="Warning" className="severity-icon severity-warning">
          <path d="M10.3 3.6L1.9 18.2A2 2 0 0 0 3.6 21h16.8a2 2 0 0 0 1.7-2.8L13.7 3.6a2 2 0 0 0-3.4 0z" fill="currentColor" stroke="none" />
          <path d="M12 9v4.5M12 17.2v.1" stroke="var(--severity-glyph)" strokeWidth={2.4} />
        </Icon>
      );
    case 'info':
      return (
        <Icon size={size} label="Info" className="severity-icon severity-info">
          <circle cx="12" cy="12" r="9.5" fill="currentColor" stroke="none" />
          <path d="M12 11v5.5M12 7.6v.1" stroke="var(--severity-glyph)" strokeWidth={2.4} />
        </Icon>
      );
  }
}
