// The baseline for `serve`: node:http answering fixed bytes and headers from memory, a 304
// when If-None-Match is sent. Prints its URL.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const { ok, notModified } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const body = Buffer.from(ok.body, "base64");
const server = createServer((req, res) => {
  if (req.headers["if-none-match"] !== undefined) res.writeHead(304, notModified.headers).end();
  else res.writeHead(200, ok.headers).end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
