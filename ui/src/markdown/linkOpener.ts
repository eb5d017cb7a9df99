/**
 * How a link to a web address in rendered Markdown is followed. In a browser (the default,
 * null) it is a plain link opening a new tab; in the desktop window, which cannot show other
 * sites, the app passes a function that hands the address to the system's browser.
 */
import { createContext } from 'react';

/** Opens an http(s) address outside the app; rejects when it could not. */
export type OpenLink = (url: string) => Promise<void>;

export const LinkOpenerContext = createContext<OpenLink | null>(null);
