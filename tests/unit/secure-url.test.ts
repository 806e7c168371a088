/**
 * core/secure-url.ts: the two questions asked of a URL a remote party names. Whether it may carry what nothing else
 * protects (https:, or http: to loopback: the secure-context rule) is not whether it leads to the relying party's own
 * machine or network, which every spelling of such an address must answer alike (issue 37, defect 4).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLocalOrPrivateHost, isTrustworthyUrl, pointsInward } from "../../core/secure-url.ts";

const hostOf = (url: string) => new URL(url).hostname;

describe("a local or private address (isLocalOrPrivateHost)", () => {
  it("is found however a URL spells it", () => {
    for (const url of [
      "https://localhost/",
      "https://localhost./",
      "https://printer.localhost/",
      "https://127.0.0.1/",
      "https://127.1/",
      "https://0x7f.1/",
      "https://2130706433/",
      "https://0.0.0.0/",
      "https://0/",
      "https://10.20.30.40/",
      "https://172.16.0.1/",
      "https://172.31.255.255/",
      "https://192.168.0.1/",
      "https://169.254.169.254/",
      "https://100.64.0.1/",
      "https://100.127.255.255/",
      "https://[::1]/",
      "https://[::]/",
      "https://[0:0:0:0:0:0:0:1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:7f00:1]/",
      "https://[::ffff:10.0.0.1]/",
      "https://[::ffff:0.0.0.0]/",
      "https://[::127.0.0.1]/",
      "https://[fc00::1]/",
      "https://[fd12:3456::1]/",
      // Found by the attack pass: an IPv4 address embedded by NAT64 or 6to4; the benchmarking range.
      "https://[64:ff9b::7f00:1]/",
      "https://[64:ff9b::10.0.0.1]/",
      "https://[2002:7f00:1::]/",
      "https://[2002:c0a8:101::1]/",
      "https://198.18.0.1/",
      "https://198.19.255.255/",
      "https://[fe80::1]/",
      "https://[febf::1]/",
    ])
      assert.equal(isLocalOrPrivateHost(hostOf(url)), true, url);
  });

  it("is not a public address or name", () => {
    for (const url of [
      "https://resolver.example/",
      "https://localhost.example/",
      "https://8.8.8.8/",
      "https://172.32.0.1/",
      "https://172.15.255.255/",
      "https://100.128.0.1/",
      "https://100.63.255.255/",
      "https://192.169.0.1/",
      "https://[2001:db8::1]/",
      "https://[::ffff:8.8.8.8]/",
      "https://[64:ff9b::8.8.8.8]/",
      "https://[2002:808:808::]/",
      "https://[fec0::1]/",
    ])
      assert.equal(isLocalOrPrivateHost(hostOf(url)), false, url);
  });

  it("takes a host as written too, a URL parser's spelling or not", () => {
    assert.equal(isLocalOrPrivateHost("[::FFFF:127.0.0.1]"), true);
    assert.equal(isLocalOrPrivateHost("LOCALHOST"), true);
  });
});

describe("pointsInward and isTrustworthyUrl answer different questions", () => {
  it("a remote party may not point inward; a local one may", () => {
    assert.equal(pointsInward("https://[::ffff:7f00:1]/x", "https://resolver.example/"), true);
    assert.equal(pointsInward("https://0.0.0.0:8443/x", undefined), true);
    assert.equal(pointsInward("https://10.0.0.2/x", "http://localhost:8080/"), false);
    assert.equal(pointsInward("https://peer.example/", "https://resolver.example/"), false);
  });

  it("http: stays allowed only to loopback, whatever is private", () => {
    assert.equal(isTrustworthyUrl("http://127.0.0.1:8080/"), true);
    assert.equal(isTrustworthyUrl("http://10.0.0.1/"), false);
    assert.equal(isTrustworthyUrl("http://0.0.0.0/"), false);
    assert.equal(isTrustworthyUrl("https://10.0.0.1/"), true);
  });
});
