/** Rules of reading a file as JSON at all: strict I-JSON (core/json/strict-json.ts) within the resource limits. */
import type { Rule } from "./rule.ts";

export const JSON_RULES = {
  "json/syntax": {
    severity: "error",
    summary: "the file is not JSON: the parser stopped here",
    why:
      "A manifest is a JSON document (RFC 8259). Text outside JSON's grammar " +
      "(comments, trailing commas, single quotes, unquoted names) is read differently " +
      "by different tools, or not at all, so nothing in the file can be validated, " +
      "signed or served.",
    source: "RFC 8259 (JSON); contract 2.1",
    fix:
      "Correct the text at the line and column given; the message says what was " +
      "expected there. The most common fault is a trailing comma before } or ]: delete " +
      "it.",
    example: '{ "subject": "did:web:you.example", }   <- a trailing comma: write { "subject": "did:web:you.example" }',
  },
  "json/encoding": {
    severity: "error",
    summary: "the file is not valid UTF-8",
    why:
      "JSON exchanged between systems is UTF-8 (RFC 8259 §8.1). Bytes that are not " +
      "UTF-8 decode to different text in different tools, so what a reviewer reads, " +
      "what is signed and what a relying party sees could differ.",
    source: "RFC 8259 §8.1; RFC 7493 §2.1 (I-JSON)",
    fix: "Save the file as UTF-8; convert one written in another encoding, for example with iconv -f LATIN1 -t UTF-8.",
  },
  "json/duplicate-key": {
    severity: "error",
    summary: "an object has the same member name twice",
    why:
      "I-JSON forbids duplicate names. JSON.parse keeps the last value, other parsers " +
      "the first, so the signer, a reviewer and a relying party could each read a " +
      "different manifest from the same bytes.",
    source: "RFC 7493 §2.3 (I-JSON); UM v0.4 core §1.6.3",
    fix: "Keep one of the two members; the message gives the line and column of the first.",
    example: '{ "subject": "did:web:a.example", "subject": "did:web:b.example" }',
  },
  "json/lone-surrogate": {
    severity: "error",
    summary: "a string holds a lone surrogate (an unpaired \\uD800-\\uDFFF escape)",
    why:
      "A lone surrogate is no Unicode character: I-JSON forbids it, JCS (RFC 8785) " +
      "cannot canonicalize it, and tools replace or drop it, each in its own way, so " +
      "the signed bytes would not be what others read.",
    source: "RFC 7493 §2.1 (I-JSON); RFC 8785 §3.2.2.2",
    fix: "Write the character itself, or both halves of its surrogate pair (\\uD83D\\uDE00, not \\uD83D alone).",
  },
  "json/number-range": {
    severity: "error",
    summary: "a number is beyond the range of a double, or so small that it reads as 0",
    why:
      "JSON numbers are read as IEEE 754 doubles (RFC 7493 §2.2): 1e400 is infinity, " +
      "which JSON cannot express, and 1e-400 reads as 0, another value than the file " +
      "shows.",
    source: "RFC 7493 §2.2 (I-JSON)",
    fix:
      "Write the value within ±1.7976931348623157e308 and no smaller than 5e-324, or " +
      "as a string if it is an identifier rather than a quantity.",
  },
  "json/unsafe-integer": {
    severity: "error",
    summary: "an integer is beyond ±(2^53-1), where JSON numbers stop being exact",
    why:
      "Past 2^53-1 a double cannot hold every integer: 9007199254740993 reads as " +
      "9007199254740992, so the manifest signed and served would say another number " +
      "than the one written, silently.",
    source: "RFC 7493 §2.2 (I-JSON)",
    fix: "Write the value as a string, or keep it within ±9007199254740991.",
    example: '"serial": 9007199254740993   ->   "serial": "9007199254740993"',
  },
  "json/unsafe-number": {
    severity: "error",
    summary: "a number with a fraction or exponent is beyond ±(2^53-1) and reads as another value",
    why:
      "However it is spelt (9007199254740993.0, 9.007199254740993e15), a number past " +
      "2^53-1 is rounded to a double that may differ from it, so the value read is not " +
      "the value written.",
    source: "RFC 7493 §2.2 (I-JSON)",
    fix: "Write the value as a string, or keep it within ±9007199254740991.",
  },
  "limits/size": {
    severity: "error",
    summary: "the file is larger than the size limit",
    why:
      "A resolver serves manifests to anyone, and relying parties must bound what they " +
      "read (core §6.3): a manifest past the limit would be refused by them, and a " +
      "huge file costs every build. The size is checked before the file is read.",
    source: 'UM v0.4 core §6.3; README, "What is checked"',
    fix:
      "Make the manifest smaller (reference large proofs by URI rather than embedding " +
      "them), or raise UM_MAX_MANIFEST_BYTES in the build's environment if your " +
      "relying parties accept larger ones. _routes.json, _keys.json and _unsigned.json " +
      "are bounded at 64 MiB.",
  },
  "limits/depth": {
    severity: "error",
    summary: "objects and arrays are nested deeper than the limit",
    why:
      "Deep nesting exhausts the stack of recursive parsers and validators, a known " +
      "way to crash a relying party (core §6.3), so it is bounded (UM_MAX_DEPTH, " +
      "default 10, the outermost object counting 1).",
    source: "UM v0.4 core §6.3",
    fix: "Flatten the structure, or raise UM_MAX_DEPTH (at most 1000) if your relying parties accept deeper documents.",
  },
  "limits/array-length": {
    severity: "error",
    summary: "an array has more elements than the limit",
    why:
      "A relying party must bound the work one manifest can cost it (core §6.3): " +
      "arrays are limited to UM_MAX_ARRAY_ITEMS elements (default 1,000).",
    source: "UM v0.4 core §6.3",
    fix:
      "Split the data over several manifests or reference it by URI, or raise " +
      "UM_MAX_ARRAY_ITEMS if your relying parties accept longer arrays.",
  },
  "limits/problems": {
    severity: "error",
    summary: "more structural problems than are listed for one file",
    why:
      "Each problem quotes an excerpt of the value at fault; a file with a thousand " +
      "faults would fill every report of it (check's output, its JSON, a receipt). The " +
      "first 50 say what is wrong, and fixing them is the way to the rest.",
    source: "manifest-resolver (core/validate/manifest-structure.ts)",
    fix: "Fix the problems listed, then check again to see the rest.",
  },
} satisfies Record<string, Rule>;
