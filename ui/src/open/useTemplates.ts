import { useEffect, useState } from 'react';
import type { Api } from '../api/Api';
import { toApiError } from '../api/apiError';
import type { ApiError } from '../generated/ApiError';
import type { WorkflowTemplate } from '../generated/WorkflowTemplate';

/** The templates a new workflow can start from, as loaded so far. */
export type TemplateListing =
  | { status: 'loading' }
  | { status: 'loaded'; templates: WorkflowTemplate[] }
  | { status: 'failed'; error: ApiError };

/** Loads the templates once. */
export function useTemplates(api: Api): TemplateListing {
  const [listing, setListing] = useState<TemplateListing>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    api.listTemplates().then(
      (templates) => {
        if (current) setListing({ status: 'loaded', templates });
      },
      (reason: unknown) => {
        if (current) setListing({ status: 'failed', error: toApiError(reason) });
      },
    );
    return () => {
      current = false;
    };
  }, [api]);
  return listing;
}
