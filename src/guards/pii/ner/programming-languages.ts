import { Flag, type Scanned } from './features';
import { nerMaxLength } from './labels';
import type { NerSpan } from './tagger';

/**
 * Programming languages read as people, places or clubs (round 41, issue 17
 * item 1): `Rust beat Go`, `from Haskell to Scala`, `Perl or Lua`. A
 * one-word PERSON, LOCATION or ORGANIZATION span whose word is a
 * programming language's name is no entity when, on its line and near it,
 *
 * - another capitalised word is one too, one of the two no given name
 *   (`Rust beat Go`, `Python or Ruby`; `Ruby beat Julia`, two given names,
 *   stay people), or
 * - it is no given name and a word of software follows or comes before it
 *   (`rewrote the parser in Zig`, `Odin compiles fast`).
 *
 * Near: within `techReachTokens` tokens on the same line, from at most
 * `techReachBefore` characters before the span's start to at most
 * `techReachAfter` after it: window mode holds a name back until the words
 * that may unmake it have arrived (2 × `nerMaxLength.PERSON` − 1, as the
 * firm cues of organisations.ts). Each span looks at a bounded number of
 * tokens: linear.
 */

/**
 * The one-word names (letters only, two or more) of the languages of type
 * `programming` in GitHub Linguist's `languages.yml` that are no dialect of
 * another (no `group`), lower-cased: npm `linguist-languages` 9.5.0 (MIT,
 * data of github-linguist/linguist, MIT), 420 words. Many are ordinary words
 * too (`clean`, `red`, `salt`); only a capitalised one-word span in a
 * technical context is dropped.
 */
const programmingLanguages = `
  abap actionscript ada agda aidl aiken al aleo algol alloy ampl angelscript antlr apex apl
  applescript arc asl aspectj assembly asymptote ats augeas autohotkey autoit awk ballerina baml
  basic batchfile beef befunge berry bicep bitbake blitzbasic blitzmax bluespec boo boogie bqn
  brainfuck brighterscript brightscript cadence cangjie carbon cartocss ceylon chapel charity
  chuck circom cirru clarion clarity clean click clips clojure clue cmake cobol codeql
  coffeescript coldfusion cool cql crystal csound cuda cue curry cweb cycript cypher cython dafny
  dart daslang dataweave denizenscript dhall dm dockerfile dogescript dtrace dune dylan earthly
  ec ecl edgeql eiffel elixir elm elvish emberscript eq erlang euphoria factor fancy fantom faust
  fennel firrtl flix fluent flux forth fpp freebasic freemarker frege futhark gaml gams gap gdb
  gdscript gdshader genie genshi gherkin gleam glsl glyph gno gnuplot go golo gosu grace groovy
  gsc hack harbour hare haskell haxe hcl hip hiveql hlsl holyc hoon hurl hy hyphy idl idris imba
  ink io ioke isabelle ispc jac jai janet jasmin jass java javascript jcl jolie jq jsoniq jsonnet
  julia just kakounescript kcl kerboscript kframework koka kotlin krl labview lambdapi langium
  lasso lean leo lex lfe lilypond limbo liquidsoap livescript llvm lobster logos logtalk lolcode
  lookml loomscript lsl lua luau makefile mako matlab max maxscript mcfunction mercury meson
  metal metta minid miniscript minizinc mint mirah mlir modelica mojo monkey moocode moonbit
  moonscript motoko move mupad myghty nasal nasl ncl nearley nemerle nesc netlinx netlogo newlisp
  nextflow nickel nim nit nix nmodl noir nsis nu nushell nwscript oberon objectscript ocaml odin
  omgrofl ooc opa opal openqasm openscad overpassql overpy ox oxygene oz pact pan papyrus parrot
  pascal pawn pddl perl php picolisp piglatin pike pkl plpgsql plsql pogoscript polar pony
  portugol powerbuilder powershell praat processing procfile prolog promela puppet purebasic
  purescript pyret python qmake qml quake quakec quickbasic quint racket ragel raku rascal
  rascript realbasic reason rebol red redcode redscript renderscript rescript rexx rez rhai ring
  robotframework roc rouge rpc rpgle ruby rust sage sail salt sas scala scenic scheme scilab sed
  self shaderlab shell shellsession shen sieve singularity sip slang slash slice smali smalltalk
  smarty smithy smpl smt solidity sourcepawn sqf sqlpl squirrel stan starlark stata supercollider
  surrealql sway swift swig systemverilog tact talon tape tcl teal terra thrift tla toit tolk
  tsql turing txl typescript typespec typst ucode uno unrealscript urweb vala vba vbscript vcl
  verilog verse vhdl volt vyper wdl webassembly webidl wgsl whiley wisp wollok wren xbase xc
  xmake xojo xonsh xproc xquery xs xslt xtend yacc yara yul zap zeek zenscript zephir zig zil
  zimpl
`;

export const programmingLanguageWords: ReadonlySet<string> = new Set(
  programmingLanguages.split(/\s+/).filter(Boolean),
);

/**
 * Lower-cased words of software text (what code is and what is done to it),
 * a fixed category list: near a language's name they say it names the
 * language.
 */
const softwareWords: ReadonlySet<string> = new Set(
  `code codebase coding coder compiler compilers compile compiles compiled compiling
  interpreter interpreted runtime syntax library libraries framework frameworks package
  packages module modules script scripts scripting function functions method methods class
  classes parser backend frontend benchmark benchmarks programming programmer programmers
  developer developers rewrite rewrites rewrote rewritten rewriting port ported porting api
  apis cli sdk repo repository debugger bindings snippet toolchain bytecode generics macros
  crate crates gem gems npm pip cargo ide vm async concurrency typed transpile transpiles
  transpiled refactor refactored`.split(/\s+/),
);

/** Tokens either side a language's partner or a software word may be. */
const techReachTokens = 8;
/** Characters before a span's start a cue may start at. */
const techReachBefore = nerMaxLength.PERSON;
/** Characters after a span's start a cue may end by (window mode's bound for a name). */
const techReachAfter = 2 * nerMaxLength.PERSON - 1;

const lowerOf = (scanned: Scanned, index: number) => scanned.words.lower[scanned.word[index]!]!;

/** Whether token `index` is a capitalised programming language's name. */
function isLanguageName(scanned: Scanned, index: number): boolean {
  return (
    (scanned.flags[index]! & (Flag.Title | Flag.Upper)) !== 0 &&
    programmingLanguageWords.has(lowerOf(scanned, index))
  );
}

/**
 * Whether `test` holds for a token near token `index`: on its line, within
 * `techReachTokens` tokens, from `techReachBefore` characters before its
 * start to `techReachAfter` after it. Bounded: at most 2 × `techReachTokens` tokens.
 */
export function nearToken(
  scanned: Scanned,
  index: number,
  test: (other: number) => boolean,
): boolean {
  const { count, newline, start: starts, end: ends } = scanned;
  const from = starts[index]! - techReachBefore;
  const to = starts[index]! + techReachAfter;
  for (let step = -1; step <= 1; step += 2) {
    for (let distance = 1; distance <= techReachTokens; distance++) {
      const other = index + step * distance;
      if (other < 0 || other >= count) break;
      // A line break between the two ends the look.
      if (newline[step < 0 ? other + 1 : other] !== 0) break;
      if (starts[other]! < from || ends[other]! > to) break;
      if (test(other)) return true;
    }
  }
  return false;
}

/** Whether token `index` is a word of software text or a capitalised programming language's name. */
export function isSoftwareWord(scanned: Scanned, index: number): boolean {
  return softwareWords.has(lowerOf(scanned, index)) || isLanguageName(scanned, index);
}

/** Whether the language's name at token `index` is no entity by what is near it (see above). */
function namesLanguage(scanned: Scanned, index: number): boolean {
  const flags = scanned.flags;
  const given = (flags[index]! & Flag.FirstName) !== 0;
  return nearToken(scanned, index, other =>
    isLanguageName(scanned, other)
      ? !given || (flags[other]! & Flag.FirstName) === 0
      : !given && softwareWords.has(lowerOf(scanned, other)),
  );
}

/** `spans` (text order) less the programming languages' names (see above). Linear. */
export function withoutLanguageNames(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  let kept: NerSpan[] | undefined;
  let token = 0;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    while (token < scanned.count && scanned.start[token]! < span.start) token++;
    const oneWord =
      token < scanned.count &&
      scanned.start[token] === span.start &&
      scanned.end[token] === span.end;
    if (
      oneWord &&
      span.type !== 'STREET_ADDRESS' &&
      isLanguageName(scanned, token) &&
      namesLanguage(scanned, token)
    ) {
      kept ??= spans.slice(0, index);
      continue;
    }
    kept?.push(span);
  }
  return kept ?? spans;
}
