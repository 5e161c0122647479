/**
 * HTML character references as a renderer shows them (round 36, hH).
 *
 * A browser shows `&eacute;` as é, `&kopf;` as 𝕜 (which the filter folds
 * to k), `&ndash;` as –, `&ZeroWidthSpace;` as nothing, `&#107ill` as
 * `kill` (the `;` of a numeric reference may be left out), `&#150;` as –
 * (the C1 codes 0x80-0x9F are read as Windows-1252) and, in raw HTML, a
 * Latin-1 reference without its `;` (`kill&nbspyourself`) as its
 * character. Markdown renderers read fewer forms (a `;` always), so reading
 * them all only ever reads more than a Markdown reader shows.
 *
 * `NAMED` holds 811 of the 2,125 HTML5 named references: every one whose
 * character is ASCII, a letter or number of any script, punctuation, a
 * blank, a format character or a mark, and every one whose character
 * `foldText` reads as an ASCII letter or digit, a blank, a joiner or
 * nothing (`&acute;`: ´ reads as a blank then a mark; `&hellip;`), and
 * the 22 symbols whose name begins with one read without `;` (`&ltri;`,
 * else read as `&lt` then `ri;`). Left as written are the other 1,314: mathematical operators, arrows, box
 * drawing, shapes, currency and other symbols beyond ASCII (`&rarr;`,
 * `&sum;`, `&euro;`, `&copy;`). Shown as a symbol that folds to no letter,
 * digit, blank or joiner, none can stand for a character of an entry on
 * the built-in lists: on each of their entries, each such reference written
 * in place of each character or between two characters, the filter's
 * verdict on the text as shown and as written is the same (878,202 texts,
 * docs/policy-guardrails.md).
 * An entry of your own holding such a symbol is not found written as its
 * reference.
 *
 * Encoded as `name=code points in hex (joined by .)`, a leading `!` on
 * the 92 names a browser reads without their `;` too (the Latin-1 ones);
 * generated from the WHATWG table (`entities.json`).
 */
const NAMED = [
  '!Aacute=c1 !aacute=e1 Abreve=102 abreve=103 !Acirc=c2 !acirc=e2 !acute=b4 Acy=410 acy=430',
  '!AElig=c6 !aelig=e6 af=2061 Afr=1d504 afr=1d51e !Agrave=c0 !agrave=e0 alefsym=2135',
  'aleph=2135 Alpha=391 alpha=3b1 Amacr=100 amacr=101 !AMP=26 !amp=26 angst=c5 Aogon=104',
  'aogon=105 Aopf=1d538 aopf=1d552 apos=27 ApplyFunction=2061 !Aring=c5 !aring=e5 Ascr=1d49c',
  'ascr=1d4b6 ast=2a !Atilde=c3 !atilde=e3 !Auml=c4 !auml=e4 backprime=2035 Bcy=411 bcy=431',
  'bdquo=201e bernou=212c Bernoullis=212c Beta=392 beta=3b2 beth=2136 Bfr=1d505 bfr=1d51f',
  'Bopf=1d539 bopf=1d553 bprime=2035 Breve=2d8 breve=2d8 Bscr=212c bscr=1d4b7 bsemi=204f',
  'bsol=5c bull=2022 bullet=2022 Cacute=106 cacute=107 CapitalDifferentialD=2145 caret=2041',
  'caron=2c7 Cayleys=212d Ccaron=10c ccaron=10d !Ccedil=c7 !ccedil=e7 Ccirc=108 ccirc=109',
  'Cdot=10a cdot=10b !cedil=b8 Cedilla=b8 CenterDot=b7 centerdot=b7 Cfr=212d cfr=1d520 CHcy=427',
  'chcy=447 Chi=3a7 chi=3c7 circ=2c6 circledS=24c8 CloseCurlyDoubleQuote=201d',
  'CloseCurlyQuote=2019 colon=3a comma=2c commat=40 complexes=2102 Copf=2102 copf=1d554',
  'Cscr=1d49e cscr=1d4b8 Dagger=2021 dagger=2020 daleth=2138 dash=2010 dblac=2dd Dcaron=10e',
  'dcaron=10f Dcy=414 dcy=434 DD=2145 dd=2146 ddagger=2021 Delta=394 delta=3b4 Dfr=1d507',
  'dfr=1d521 DiacriticalAcute=b4 DiacriticalDot=2d9 DiacriticalDoubleAcute=2dd',
  'DiacriticalGrave=60 DiacriticalTilde=2dc die=a8 DifferentialD=2146 digamma=3dd DJcy=402',
  'djcy=452 dollar=24 Dopf=1d53b dopf=1d555 Dot=a8 dot=2d9 DotDot=20dc DoubleDot=a8',
  'DownBreve=311 Dscr=1d49f dscr=1d4b9 DScy=405 dscy=455 Dstrok=110 dstrok=111 DZcy=40f',
  'dzcy=45f !Eacute=c9 !eacute=e9 Ecaron=11a ecaron=11b !Ecirc=ca !ecirc=ea Ecy=42d ecy=44d',
  'Edot=116 edot=117 ee=2147 Efr=1d508 efr=1d522 !Egrave=c8 !egrave=e8 ell=2113 Emacr=112',
  'emacr=113 emsp13=2004 emsp14=2005 emsp=2003 ENG=14a eng=14b ensp=2002 Eogon=118 eogon=119',
  'Eopf=1d53c eopf=1d556 epsi=3b5 Epsilon=395 epsilon=3b5 epsiv=3f5 equals=3d Escr=2130',
  'escr=212f Eta=397 eta=3b7 !ETH=d0 !eth=f0 !Euml=cb !euml=eb excl=21 expectation=2130',
  'ExponentialE=2147 exponentiale=2147 Fcy=424 fcy=444 ffilig=fb03 fflig=fb00 ffllig=fb04',
  'Ffr=1d509 ffr=1d523 filig=fb01 fjlig=66.6a fllig=fb02 fnof=192 Fopf=1d53d fopf=1d557',
  'Fouriertrf=2131 !frac12=bd frac13=2153 !frac14=bc frac15=2155 frac16=2159 frac18=215b',
  'frac23=2154 frac25=2156 !frac34=be frac35=2157 frac38=215c frac45=2158 frac56=215a',
  'frac58=215d frac78=215e Fscr=2131 fscr=1d4bb gacute=1f5 Gamma=393 gamma=3b3 Gammad=3dc',
  'gammad=3dd Gbreve=11e gbreve=11f Gcedil=122 Gcirc=11c gcirc=11d Gcy=413 gcy=433 Gdot=120',
  'gdot=121 Gfr=1d50a gfr=1d524 gimel=2137 GJcy=403 gjcy=453 Gopf=1d53e gopf=1d558 grave=60',
  'Gscr=1d4a2 gscr=210a !GT=3e !gt=3e gtcc=2aa7 gtcir=2a7a gtdot=22d7 gtlPar=2995 gtquest=2a7c',
  'gtrapprox=2a86 gtrarr=2978 gtrdot=22d7 gtreqless=22db gtreqqless=2a8c gtrless=2277',
  'gtrsim=2273 Hacek=2c7 hairsp=200a half=bd hamilt=210b HARDcy=42a hardcy=44a Hat=5e hbar=210f',
  'Hcirc=124 hcirc=125 hellip=2026 Hfr=210c hfr=1d525 HilbertSpace=210b Hopf=210d hopf=1d559',
  'horbar=2015 Hscr=210b hscr=1d4bd hslash=210f Hstrok=126 hstrok=127 hybull=2043 hyphen=2010',
  '!Iacute=cd !iacute=ed ic=2063 !Icirc=ce !icirc=ee Icy=418 icy=438 Idot=130 IEcy=415 iecy=435',
  '!iexcl=a1 Ifr=2111 ifr=1d526 !Igrave=cc !igrave=ec ii=2148 IJlig=132 ijlig=133 Im=2111',
  'Imacr=12a imacr=12b image=2111 ImaginaryI=2148 imagline=2110 imagpart=2111 imath=131',
  'imped=1b5 incare=2105 inodot=131 integers=2124 InvisibleComma=2063 InvisibleTimes=2062',
  'IOcy=401 iocy=451 Iogon=12e iogon=12f Iopf=1d540 iopf=1d55a Iota=399 iota=3b9 !iquest=bf',
  'Iscr=2110 iscr=1d4be it=2062 Itilde=128 itilde=129 Iukcy=406 iukcy=456 !Iuml=cf !iuml=ef',
  'Jcirc=134 jcirc=135 Jcy=419 jcy=439 Jfr=1d50d jfr=1d527 jmath=237 Jopf=1d541 jopf=1d55b',
  'Jscr=1d4a5 jscr=1d4bf Jsercy=408 jsercy=458 Jukcy=404 jukcy=454 Kappa=39a kappa=3ba',
  'kappav=3f0 Kcedil=136 kcedil=137 Kcy=41a kcy=43a Kfr=1d50e kfr=1d528 kgreen=138 KHcy=425',
  'khcy=445 KJcy=40c kjcy=45c Kopf=1d542 kopf=1d55c Kscr=1d4a6 kscr=1d4c0 Lacute=139 lacute=13a',
  'lagran=2112 Lambda=39b lambda=3bb Lang=27ea lang=27e8 langd=2991 langle=27e8 Laplacetrf=2112',
  '!laquo=ab lbbrk=2772 lbrace=7b lbrack=5b lbrke=298b lbrksld=298f lbrkslu=298d Lcaron=13d',
  'lcaron=13e Lcedil=13b lcedil=13c lceil=2308 lcub=7b Lcy=41b lcy=43b ldquo=201c ldquor=201e',
  'LeftAngleBracket=27e8 LeftCeiling=2308 LeftDoubleBracket=27e6 LeftFloor=230a lfloor=230a',
  'Lfr=1d50f lfr=1d529 LJcy=409 ljcy=459 Lmidot=13f lmidot=140 loang=27ec lobrk=27e6 lopar=2985',
  'Lopf=1d543 lopf=1d55d lowbar=5f lpar=28 lparlt=2993 lrm=200e lsaquo=2039 Lscr=2112',
  'lscr=1d4c1 lsqb=5b lsquo=2018 lsquor=201a Lstrok=141 lstrok=142 !LT=3c !lt=3c ltcc=2aa6',
  'ltcir=2a79 ltdot=22d6 lthree=22cb ltimes=22c9 ltlarr=2976 ltquest=2a7b ltri=25c3 ltrie=22b4',
  'ltrif=25c2 ltrPar=2996 !macr=af Mcy=41c mcy=43c mdash=2014 MediumSpace=205f Mellintrf=2133',
  'Mfr=1d510 mfr=1d52a !micro=b5 midast=2a !middot=b7 minus=2212 mldr=2026 Mopf=1d544',
  'mopf=1d55e Mscr=2133 mscr=1d4c2 Mu=39c mu=3bc Nacute=143 nacute=144 napos=149 naturals=2115',
  '!nbsp=a0 Ncaron=147 ncaron=148 Ncedil=145 ncedil=146 Ncy=41d ncy=43d ndash=2013',
  'NegativeMediumSpace=200b NegativeThickSpace=200b NegativeThinSpace=200b',
  'NegativeVeryThinSpace=200b NewLine=a Nfr=1d511 nfr=1d52b NJcy=40a njcy=45a nldr=2025',
  'NoBreak=2060 NonBreakingSpace=a0 Nopf=2115 nopf=1d55f Nscr=1d4a9 nscr=1d4c3 !Ntilde=d1',
  '!ntilde=f1 Nu=39d nu=3bd num=23 numero=2116 numsp=2007 !Oacute=d3 !oacute=f3 !Ocirc=d4',
  '!ocirc=f4 Ocy=41e ocy=43e Odblac=150 odblac=151 OElig=152 oelig=153 Ofr=1d512 ofr=1d52c',
  'ogon=2db !Ograve=d2 !ograve=f2 ohm=3a9 oline=203e Omacr=14c omacr=14d Omega=3a9 omega=3c9',
  'Omicron=39f omicron=3bf Oopf=1d546 oopf=1d560 OpenCurlyDoubleQuote=201c OpenCurlyQuote=2018',
  'order=2134 orderof=2134 !ordf=aa !ordm=ba oS=24c8 Oscr=1d4aa oscr=2134 !Oslash=d8 !oslash=f8',
  '!Otilde=d5 !otilde=f5 !Ouml=d6 !ouml=f6 OverBar=203e !para=b6 parallel=2225 Pcy=41f pcy=43f',
  'percnt=25 period=2e permil=2030 pertenk=2031 Pfr=1d513 pfr=1d52d Phi=3a6 phi=3c6 phiv=3d5',
  'phmmat=2133 Pi=3a0 pi=3c0 piv=3d6 planck=210f planckh=210e plankv=210f plus=2b',
  'Poincareplane=210c Popf=2119 popf=1d561 Prime=2033 prime=2032 primes=2119 Pscr=1d4ab',
  'pscr=1d4c5 Psi=3a8 psi=3c8 puncsp=2008 Qfr=1d514 qfr=1d52e Qopf=211a qopf=1d562 qprime=2057',
  'Qscr=1d4ac qscr=1d4c6 quaternions=210d quest=3f !QUOT=22 !quot=22 Racute=154 racute=155',
  'Rang=27eb rang=27e9 rangd=2992 rangle=27e9 !raquo=bb rationals=211a rbbrk=2773 rbrace=7d',
  'rbrack=5d rbrke=298c rbrksld=298e rbrkslu=2990 Rcaron=158 rcaron=159 Rcedil=156 rcedil=157',
  'rceil=2309 rcub=7d Rcy=420 rcy=440 rdquo=201d rdquor=201d Re=211c real=211c realine=211b',
  'realpart=211c reals=211d rfloor=230b Rfr=211c rfr=1d52f Rho=3a1 rho=3c1 rhov=3f1',
  'RightAngleBracket=27e9 RightCeiling=2309 RightDoubleBracket=27e7 RightFloor=230b ring=2da',
  'rlm=200f roang=27ed robrk=27e7 ropar=2986 Ropf=211d ropf=1d563 rpar=29 rpargt=2994',
  'rsaquo=203a Rscr=211b rscr=1d4c7 rsqb=5d rsquo=2019 rsquor=2019 Sacute=15a sacute=15b',
  'sbquo=201a Scaron=160 scaron=161 Scedil=15e scedil=15f Scirc=15c scirc=15d Scy=421 scy=441',
  '!sect=a7 semi=3b Sfr=1d516 sfr=1d530 SHCHcy=429 shchcy=449 SHcy=428 shcy=448 !shy=ad',
  'Sigma=3a3 sigma=3c3 sigmaf=3c2 sigmav=3c2 SOFTcy=42c softcy=44c sol=2f Sopf=1d54a sopf=1d564',
  'Sscr=1d4ae sscr=1d4c8 straightepsilon=3f5 straightphi=3d5 strns=af !sup1=b9 !sup2=b2',
  '!sup3=b3 !szlig=df Tab=9 Tau=3a4 tau=3c4 Tcaron=164 tcaron=165 Tcedil=162 tcedil=163 Tcy=422',
  'tcy=442 tdot=20db Tfr=1d517 tfr=1d531 Theta=398 theta=3b8 thetasym=3d1 thetav=3d1',
  'ThickSpace=205f.200a thinsp=2009 ThinSpace=2009 !THORN=de !thorn=fe tilde=2dc Topf=1d54b',
  'topf=1d565 tprime=2034 TRADE=2122 trade=2122 TripleDot=20db Tscr=1d4af tscr=1d4c9 TScy=426',
  'tscy=446 TSHcy=40b tshcy=45b Tstrok=166 tstrok=167 !Uacute=da !uacute=fa Ubrcy=40e ubrcy=45e',
  'Ubreve=16c ubreve=16d !Ucirc=db !ucirc=fb Ucy=423 ucy=443 Udblac=170 udblac=171 Ufr=1d518',
  'ufr=1d532 !Ugrave=d9 !ugrave=f9 Umacr=16a umacr=16b !uml=a8 UnderBar=5f Uogon=172 uogon=173',
  'Uopf=1d54c uopf=1d566 Upsi=3d2 upsi=3c5 upsih=3d2 Upsilon=3a5 upsilon=3c5 Uring=16e',
  'uring=16f Uscr=1d4b0 uscr=1d4ca Utilde=168 utilde=169 !Uuml=dc !uuml=fc varepsilon=3f5',
  'varkappa=3f0 varphi=3d5 varpi=3d6 varrho=3f1 varsigma=3c2 vartheta=3d1 Vcy=412 vcy=432',
  'Verbar=2016 verbar=7c Vert=2016 vert=7c VerticalLine=7c VeryThinSpace=200a Vfr=1d519',
  'vfr=1d533 Vopf=1d54d vopf=1d567 Vscr=1d4b1 vscr=1d4cb Wcirc=174 wcirc=175 Wfr=1d51a',
  'wfr=1d534 Wopf=1d54e wopf=1d568 Wscr=1d4b2 wscr=1d4cc Xfr=1d51b xfr=1d535 Xi=39e xi=3be',
  'Xopf=1d54f xopf=1d569 Xscr=1d4b3 xscr=1d4cd !Yacute=dd !yacute=fd YAcy=42f yacy=44f',
  'Ycirc=176 ycirc=177 Ycy=42b ycy=44b Yfr=1d51c yfr=1d536 YIcy=407 yicy=457 Yopf=1d550',
  'yopf=1d56a Yscr=1d4b4 yscr=1d4ce YUcy=42e yucy=44e Yuml=178 !yuml=ff Zacute=179 zacute=17a',
  'Zcaron=17d zcaron=17e Zcy=417 zcy=437 Zdot=17b zdot=17c zeetrf=2128 ZeroWidthSpace=200b',
  'Zeta=396 zeta=3b6 Zfr=2128 zfr=1d537 ZHcy=416 zhcy=436 Zopf=2124 zopf=1d56b Zscr=1d4b5',
  'zscr=1d4cf zwj=200d zwnj=200c',
].join(' ');

/** Name -> shown text, and the names read without `;`, parsed on first use. */
let named: Map<string, string> | undefined;
let withoutSemicolon: Set<string> | undefined;

function namedReferences(): { named: Map<string, string>; withoutSemicolon: Set<string> } {
  if (named === undefined || withoutSemicolon === undefined) {
    named = new Map();
    withoutSemicolon = new Set();
    for (const item of NAMED.split(' ')) {
      const equals = item.indexOf('=');
      const legacy = item.charCodeAt(0) === 0x21;
      const name = item.slice(legacy ? 1 : 0, equals);
      const points = item
        .slice(equals + 1)
        .split('.')
        .map(hex => Number.parseInt(hex, 16));
      named.set(name, String.fromCodePoint(...points));
      if (legacy) withoutSemicolon.add(name);
    }
  }
  return { named, withoutSemicolon };
}

/** The longest name read (`CounterClockwiseContourIntegral`, 31 letters); the longest read without `;`. */
const MAX_NAME = 32;
const MAX_LEGACY_NAME = 6;

/** What a browser shows for 0x80-0x9F (read as Windows-1252); 0 where it keeps the code. */
const WINDOWS_1252 = [
  0x20ac, 0, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0,
  0x17d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0, 0x17e, 0x178,
];

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
}

function isDigit(code: number, hex: boolean): boolean {
  return (code >= 0x30 && code <= 0x39) || (hex && (code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);
}

/** The numeric reference at `at` (`&#`), as the HTML tokenizer reads it. */
function numericAt(text: string, at: number): { shown: string; end: number } | undefined {
  let index = at + 2;
  const hex = (text.charCodeAt(index) | 0x20) === 0x78;
  if (hex) index++;
  const first = index;
  let code = 0;
  for (; index < text.length && isDigit(text.charCodeAt(index), hex); index++) {
    // Past U+10FFFF it stays past: the reference shows U+FFFD however long.
    if (code <= 0x10ffff) code = code * (hex ? 16 : 10) + Number.parseInt(text[index]!, 16);
  }
  if (index === first) return undefined;
  if (text.charCodeAt(index) === 0x3b) index++;
  if (code >= 0x80 && code <= 0x9f) code = WINDOWS_1252[code - 0x80] || code;
  else if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) code = 0xfffd;
  return { shown: String.fromCodePoint(code), end: index };
}

/**
 * The character reference at `at` (a `&`) as a browser shows it: its text
 * and end, or undefined when it is read as written (not one, or a named
 * one not in `NAMED`). Reads at most `MAX_NAME` units, or a numeric
 * reference's digits (which the caller then steps over).
 */
export function referenceAt(text: string, at: number): { shown: string; end: number } | undefined {
  if (text.charCodeAt(at + 1) === 0x23) return numericAt(text, at);
  let end = at + 1;
  const last = Math.min(text.length, at + 1 + MAX_NAME);
  while (end < last && isAsciiAlphanumeric(text.charCodeAt(end))) end++;
  if (end === at + 1) return undefined;
  const { named, withoutSemicolon } = namedReferences();
  if (text.charCodeAt(end) === 0x3b) {
    const shown = named.get(text.slice(at + 1, end));
    if (shown !== undefined) return { shown, end: end + 1 };
  }
  // A Latin-1 name without its `;`: the longest that begins the run.
  for (let length = Math.min(MAX_LEGACY_NAME, end - at - 1); length >= 2; length--) {
    const name = text.slice(at + 1, at + 1 + length);
    if (withoutSemicolon.has(name)) return { shown: named.get(name)!, end: at + 1 + length };
  }
  return undefined;
}
