import assert from "node:assert/strict";
import { test } from "node:test";
import type { RuleId } from "../../core/rules/index.ts";
import {
  countsByRule,
  diagnostic,
  printable,
  sortDiagnostics,
  type Diagnostic,
} from "../../scripts/report/diagnostics.ts";
import { githubAnnotation } from "../../scripts/report/github.ts";
import { jsonLines } from "../../scripts/report/json.ts";
import { formatDiagnostic } from "../../scripts/report/text.ts";

const d: Diagnostic = {
  severity: "error",
  file: "content/a,b:c.json",
  rule: "schema/required",
  message: 'missing "x"\n100%',
  pointer: "/a",
  line: 3,
  column: 7,
};

test("formats like TypeScript, with the pointer after the message", () => {
  assert.equal(formatDiagnostic(d), 'content/a,b:c.json:3:7 - error schema/required: missing "x"\\n100% at /a');
  assert.equal(
    formatDiagnostic({ ...d, pointer: "" }),
    'content/a,b:c.json:3:7 - error schema/required: missing "x"\\n100% at (root)',
  );
  const { line: _, column: __, pointer: ___, ...whole } = d;
  assert.equal(
    formatDiagnostic({ ...whole, severity: "warning" }),
    'content/a,b:c.json - warning schema/required: missing "x"\\n100%',
  );
});

test("GitHub annotations escape what the runner would misread", () => {
  assert.equal(
    githubAnnotation(d),
    "::error " +
      "file=content/a%2Cb%3Ac.json,line=3,col=7,title=schema/required::content/a,b:c.json:3:7 " +
      '- error schema/required: missing "x"\\n100%25 at /a',
  );
});

test("control, line-break and bidirectional characters are shown as escapes; no line starts a workflow command", () => {
  const hostile: Diagnostic = {
    severity: "error",
    file: "a\r\n::error::x\u2028.json",
    rule: "json/syntax",
    message: "\u202eevil\u2066 \u0085\u007f\t",
  };
  assert.equal(
    formatDiagnostic(hostile),
    "a\\r\\n::error::x\\u2028.json - error json/syntax: \\u202eevil\\u2066 \\u0085\\u007f\\t",
  );
  assert.equal(formatDiagnostic({ ...hostile, file: "::warning::b.json" }).slice(0, 2), "./");
  assert.equal(formatDiagnostic({ ...hostile, file: " \t::warning::b.json" }).slice(0, 2), "./");
  // The runner's older syntax runs "##[command]" wherever it stands in a line.
  assert.doesNotMatch(
    formatDiagnostic({ ...hostile, file: "x##[error]f.json", message: "##[stop-commands]t" }),
    /##\[/,
  );
  assert.doesNotMatch(githubAnnotation(hostile), /[\r\n\u2028\u202e]/);
});

test("escapes are JSON's, so a JSON line stays JSON with the same values", () => {
  const value = { file: "a\u202e##[x]\u0085\u007f\u2028\n" };
  const line = printable(JSON.stringify(value));
  assert.doesNotMatch(line, /[\u202e\u0085\u007f\u2028]|##\[/);
  assert.deepEqual(JSON.parse(line), value);
});

test(
  "sorted by file, in the order files were checked, then by line and column; " +
    "problems of the whole file first; ties keep their order",
  () => {
    const at = (file: string, rule: RuleId, line?: number, column = 1): Diagnostic => ({
      severity: "error",
      file,
      rule,
      message: "m",
      ...(line !== undefined && { line, column }),
    });
    const found = [
      at("b.json", "signature/invalid", 15, 14),
      at("a.json", "json/syntax", 3, 1),
      at("b.json", "schema/required", 1, 1),
      at("b.json", "time/issued-after-expiry", 7, 15),
      at("b.json", "schema/format", 7, 15),
      at("b.json", "limits/size"),
      at("b.json", "schema/type", 7, 3),
    ];
    assert.deepEqual(
      sortDiagnostics(found).map((d) => `${d.file} ${d.rule}`),
      [
        "b.json limits/size",
        "b.json schema/required",
        "b.json schema/type",
        "b.json time/issued-after-expiry",
        "b.json schema/format",
        "b.json signature/invalid",
        "a.json json/syntax",
      ],
    );
  },
);

test("counts by rule, most first, ties by name", () => {
  const of = (rule: RuleId): Diagnostic => ({ severity: "error", file: "f", rule, message: "m" });
  assert.equal(
    countsByRule([of("schema/type"), of("signature/invalid"), of("json/syntax"), of("signature/invalid")]),
    "signature/invalid ×2, json/syntax ×1, schema/type ×1",
  );
});

test("made through the registry: the rule's severity unless told otherwise, and only the place given", () => {
  assert.deepEqual(diagnostic("time/expired", { file: "a.json", pointer: "/expiresAt" }, "m"), {
    severity: "warning",
    file: "a.json",
    rule: "time/expired",
    message: "m",
    pointer: "/expiresAt",
  });
  assert.equal(diagnostic("time/expired", { file: "a.json" }, "m", "error").severity, "error");
  assert.deepEqual(diagnostic("json/syntax", { file: "a.json", line: 2, column: 5 }, "m"), {
    severity: "error",
    file: "a.json",
    rule: "json/syntax",
    message: "m",
    line: 2,
    column: 5,
  });
});

test("check --json: a line per file, in their order, its problems by severity, escaped as printed lines are", () => {
  const warning: Diagnostic = { severity: "warning", file: "b.json", rule: "time/expired", message: "old" };
  const lines = jsonLines(
    [
      { file: "content/a,b:c.json", umid: "urn:a" },
      { file: "b.json", umid: null },
      { file: "clean.json", umid: "urn:c" },
    ],
    [d, warning],
  );
  assert.deepEqual(lines, [
    '{"file":"content/a,b:c.json","umid":"urn:a","ok":false,"errors":[{"rule":"schema/required","message":"missing ' +
      '\\"x\\"\\n100%","pointer":"/a","line":3,"column":7}],"warnings":[]}',
    '{"file":"b.json","umid":null,"ok":true,"errors":[],"warnings":[{"rule":"time/expired","message":"old","pointer":null,"line":null,"column":null}]}',
    '{"file":"clean.json","umid":"urn:c","ok":true,"errors":[],"warnings":[]}',
  ]);
});
