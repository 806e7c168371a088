import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = `${ROOT}bin/manifest-resolver.js`;
export const SHARED = `${ROOT}../shared/`;
