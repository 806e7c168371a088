/**
 * A statusRef into a Bitstring Status List: `<list URL>#<index>`, the index in decimal
 * without a leading zero (VC Bitstring Status List §2.1: the entry's `id` is the list's
 * URL and the index after `#`). A statusRef of any other form names a status endpoint
 * (EXT-OPT O2.1), which has no fragment.
 */
import { STATUS_LIST_PREFIX } from "../umid-path.ts";

export interface ListEntryRef {
  /** The list's URL: the statusRef without its fragment. */
  listUrl: string;
  index: number;
}

/** The list and index `statusRef` names, or undefined when it names no list entry. */
export function listEntryRef(statusRef: string): ListEntryRef | undefined {
  const hash = statusRef.indexOf("#");
  if (hash < 0) return undefined;
  const fragment = statusRef.slice(hash + 1);
  if (!/^(?:0|[1-9][0-9]{0,14})$/.test(fragment)) return undefined;
  return { listUrl: statusRef.slice(0, hash), index: Number(fragment) };
}

/** What a list id may be: the build names its files by it. */
export const LIST_ID = /^[a-z0-9]{1,64}$/;

/** The URL of list `listId` at the resolver whose base URL is `baseUrl`. */
export function statusListUrl(baseUrl: string, listId: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${STATUS_LIST_PREFIX}/${listId}`;
}

/** The statusRef of entry `index` of the list at `listUrl`. */
export function listStatusRef(listUrl: string, index: number): string {
  return `${listUrl}#${index}`;
}
