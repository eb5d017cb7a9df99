import type { ReactNode } from 'react';

interface ErrorBannerProps {
  /** What could not be done ("Could not fork the run"). */
  title: ReactNode;
  /** Why, as the API or the browser said it. */
  message: string;
  testId?: string;
}

/** A failed action's banner: what failed, in bold, then why; announced as an alert. */
export function ErrorBanner({ title, message, testId }: ErrorBannerProps) {
  return (
    <div className="banner is-error" role="alert" data-testid={testId}>
      <strong>{title}</strong>
      <span>{message}</span>
    </div>
  );
}
