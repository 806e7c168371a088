import { corpus } from "./bench/corpus.ts";
console.log(await corpus(Number(process.argv[2]), console.log));
