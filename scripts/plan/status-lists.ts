/**
 * The status lists a build publishes (issue 27; VC Bitstring Status List, EXT-OPT O2.4), derived from the allocation
 * (`content/_status/`: check/status-allocation.ts) and the status each UMID is served with (statuses.ts: the one the
 * status endpoint answers), and nothing written by hand: each allocated entry holds its UMID's status (active 0,
 * suspended 1, revoked 2), or 3 ("undefined") when the resolver answers no status for it (redirected, or its manifest
 * removed unrevoked: the status endpoint's 404), so that a copy of such a manifest is not vouched "active" by the
 * list; every entry not allocated is 0. Each list is a BitstringStatusListCredential
 * (core/status-list/credential.ts) whose `validFrom` is the latest `updatedAt` of its members' statuses (the build's
 * time if that is later), so the same content gives the same bytes; signed with UM_STATUS_LIST_KEY when it is set
 * (crypto/status-list-key.ts). The lists and the discovery document (`content/_resolvers.json`,
 * check/resolvers-document.ts) are routes of the route table (routes.ts).
 */
import { utf8 } from "../../core/base64url.ts";
import { addEddsaJcs2022Proof } from "../../core/crypto/eddsa-jcs-2022.ts";
import { encodeStatusList, type StatusCode, statusBitstring } from "../../core/status-list/bitstring.ts";
import { STATUS_CODES, statusListCredential } from "../../core/status-list/credential.ts";
import { RESOLVERS_PATH, STATUS_LIST_PREFIX } from "../../core/umid-path.ts";
import { RESOLVERS_DOCUMENT, STATUS_LIST } from "../../core/served-kinds.ts";
import type { ContentCheck } from "../check/check-content.ts";
import { UNDATED } from "../check/routes.ts";
import type { AllocatedList } from "../check/status-allocation.ts";
import type { StatusListSigner } from "../crypto/status-list-key.ts";
import type { Route } from "./routes.ts";
import { publishedStatus, revokedStatus } from "./statuses.ts";

/** How long a relying party may keep a list (its credentialSubject.ttl), as the edge lets caches keep it. */
const STATUS_LIST_TTL_MS = 300_000;

/** The routes of the content's status lists and discovery document, in path order. */
export async function wellKnownRoutes(
  content: Pick<ContentCheck, "published" | "revoked" | "statuses" | "statusAllocation">,
  nextCheck: string,
  signer: StatusListSigner | undefined,
  resolvers: string | undefined,
  now: Date,
): Promise<Route[]> {
  const routes: Route[] = [];
  const lists = content.statusAllocation.lists;
  const members = listMembers(content, nextCheck);
  for (const list of [...lists].sort((a, b) => (a.listId < b.listId ? -1 : 1))) {
    const body = JSON.stringify(await listCredential(list, members.get(list) ?? [], signer, now));
    routes.push({ path: `${STATUS_LIST_PREFIX}/${list.listId}`, bytes: utf8(body), served: STATUS_LIST });
  }
  if (resolvers !== undefined)
    routes.push({ path: RESOLVERS_PATH, bytes: utf8(resolvers), served: RESOLVERS_DOCUMENT });
  return routes;
}

/** The value of an allocated entry whose UMID the resolver answers no status for (statusMessage 0x3, "undefined"). */
const NO_STATUS: StatusCode = 3;

/** An allocated entry whose UMID is served: its index, its status's value and when that status began. */
type Member = [index: number, code: StatusCode, updatedAt: string];

/** Each list's members: the published and revoked UMIDs it allocates (a redirected one has no status here). */
function listMembers(
  { published, revoked, statuses, statusAllocation }: Parameters<typeof wellKnownRoutes>[0],
  nextCheck: string,
): Map<AllocatedList, Member[]> {
  const members = new Map<AllocatedList, Member[]>();
  const add = (umid: string, status: { status: keyof typeof STATUS_CODES; updatedAt: string }) => {
    const entry = statusAllocation.entryOf(umid);
    if (entry === undefined) return;
    const member: Member = [entry.index, STATUS_CODES[status.status], status.updatedAt];
    const list = members.get(entry.list);
    if (list === undefined) members.set(entry.list, [member]);
    else list.push(member);
  };
  if (statusAllocation.size === 0) return members;
  for (let i = 0; i < published.length; i++) {
    const umid = published.umidAt(i);
    add(umid, publishedStatus(published.issuedAt(i), statuses.get(umid), nextCheck));
  }
  for (const umid of revoked) add(umid, revokedStatus(statuses.get(umid), nextCheck));
  return members;
}

async function listCredential(
  list: AllocatedList,
  members: readonly Member[],
  signer: StatusListSigner | undefined,
  now: Date,
): Promise<Record<string, unknown>> {
  let validFrom = UNDATED;
  for (const [, , at] of members) if (at > validFrom) validFrom = at;
  // A status dated later than the build (a date typed wrong) would make the list valid only from then: a relying party
  // refuses a list not valid yet whole, and every entry, a revocation too, would read as unchecked.
  const built = now.toISOString();
  if (validFrom > built) validFrom = built;
  const credential = statusListCredential({
    url: list.url,
    // The resolver that serves the list, unsigned: its URL without the list's path.
    issuer: signer?.did ?? list.url.slice(0, -`${STATUS_LIST_PREFIX}/${list.listId}`.length),
    validFrom,
    ttlMs: STATUS_LIST_TTL_MS,
    // Every allocated entry first, then the served ones over it: what stays is an entry with no status.
    encodedList: await encodeStatusList(
      statusBitstring([
        ...Array.from(list.indices, (index) => [index, NO_STATUS] as const),
        ...members.map(([index, code]) => [index, code] as const),
      ]),
    ),
  });
  if (signer === undefined) return credential;
  return addEddsaJcs2022Proof(
    credential,
    { verificationMethod: signer.verificationMethod, created: validFrom },
    (data) => signer.sign(data),
  );
}
