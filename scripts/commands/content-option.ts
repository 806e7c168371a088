/** `--content DIR`, shared by the commands that read or edit a content folder. */
import { defaultContentDir } from "../read/content-root.ts";
import { stringOption } from "./options.ts";

export const CONTENT_OPTION = {
  content: stringOption({
    value: "DIR",
    help: "content directory",
    default: { text: "the repository's content/", value: defaultContentDir },
  }),
};
