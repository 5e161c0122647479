import { describe, expect, it } from 'vitest';
import { expectLinearOnRepeats } from '../../../test/helpers/repeated-unit-cost';
import { foundSecrets, secretsRedacted } from '../../../test/helpers/secrets-redacted';
import { anchoredScanMismatches, findSecrets } from './find-secrets';

/*
 * Round 47 (issue 17): config and command-line shapes whose key or flag names
 * a secret (`provider-rules.ts`' config rules). Every value below is made up
 * for this file.
 */

const PASSWORD = 'Hv7!qR2zLm9w';
const TOKEN = 'T4kq9Zr2Lm8Xw3Nb7Yp1Vd6Hs5Jc0Gf';

describe('each shape: the value found and redacted exactly', () => {
  it.each([
    ['.netrc on several lines', `machine git.corp.test\n  login ci\n  password ${PASSWORD}\n`],
    ['.netrc default entry', `default login anon password ${PASSWORD}`],
    ['PHP define, double quotes', `define("MAIL_PASS", "${PASSWORD}");`],
    ['WordPress salt', `define( 'SECURE_AUTH_SALT', '${TOKEN}' );`],
    ['PHP array item', `$settings['smtp']['password'] = '${PASSWORD}';`],
    ['Python environ item', `os.environ["API_TOKEN"] = "${TOKEN}"`],
    ['htpasswd -bc', `htpasswd -bc /etc/nginx/users admin ${PASSWORD}`],
    ['htpasswd -nb (no file)', `htpasswd -nb admin ${PASSWORD}`],
    ['an auth key in YAML', `cache:\n  auth: ${TOKEN}\n`],
    ['npm _auth', `_auth=${TOKEN}`],
    ['docker login -p', `docker login -u ci -p ${PASSWORD} registry.test`],
    ['docker login --password=', `docker login --password=${PASSWORD} registry.test`],
    ['redis-cli -a', `redis-cli -h cache.test -a ${PASSWORD} ping`],
  ])('%s', (_, text) => {
    const value = text.includes(TOKEN) ? TOKEN : PASSWORD;
    expect(foundSecrets(text)).toEqual([['GENERIC_SECRET', value]]);
    expect(secretsRedacted(text)).toBe(text.replace(value, '[GENERIC_SECRET]'));
  });

  it('every string of a JSON array under a secret key, each its own span', () => {
    const text = `{"api_tokens": ["${TOKEN}", "${PASSWORD}"]}`;
    expect(foundSecrets(text)).toEqual([
      ['GENERIC_SECRET', TOKEN],
      ['GENERIC_SECRET', PASSWORD],
    ]);
    expect(secretsRedacted(text)).toBe('{"api_tokens": ["[GENERIC_SECRET]", "[GENERIC_SECRET]"]}');
  });

  it('a quoted value past 200 characters is read to its end', () => {
    const long = `${TOKEN}${'Zq8'.repeat(80)}`;
    const text = `define('DB_PASSWORD', '${long}');`;
    expect(foundSecrets(text)).toEqual([['GENERIC_SECRET', long]]);
  });
});

describe('look-alikes stay unflagged', () => {
  it.each([
    ['a .netrc template', 'machine HOST login USER password <password>'],
    ['prose about a login password', 'Use the login page, then the password field.'],
    ['define from the environment', "define('DB_PASSWORD', getenv('DB_PASSWORD'));"],
    ['define of an empty string', "define('DB_PASSWORD', '');"],
    ['define of a name that is no secret', "define('WP_HOME', 'https://blog.example.com');"],
    ['an item set from a variable', `$config['password'] = '\${DB_PASS}';`],
    ['htpasswd asking for the password', 'htpasswd -c /etc/apache2/.htpasswd admin'],
    ['htpasswd placeholders', 'htpasswd -b .htpasswd USERNAME PASSWORD'],
    ['an empty JSON array', '{"passwords": []}'],
    ['a JSON array of variables', `{"tokens": ["\${TOKEN_A}", "\${TOKEN_B}"]}`],
    ['an auth scheme', '{"auth": "oauth2", "token_ttl": 3600}'],
    ['an auth type', 'auth: basic'],
    ['an auth provider name', 'AUTH_PROVIDER=github'],
    ['docker login from stdin', 'echo "$PAT" | docker login ghcr.io -u me --password-stdin'],
    ['docker login with a variable', 'docker login -u $USER -p $DOCKER_PASS'],
    ['redis-cli without a password', 'redis-cli -h cache.test ping'],
  ])('%s: nothing', (_, text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('the anchored scan matches a full scan of each rule', () => {
  it.each([
    [`machine h login u password ${PASSWORD} login x password y1`],
    [`define('A_TOKEN','${TOKEN}') define ("X_SECRET" , "${PASSWORD}")`],
    [`a['x_pass']='${PASSWORD}' [ 'b' ] ["api_key"]= "${TOKEN}"`],
    [`htpasswd -c -b f u ${PASSWORD}; htpasswd -nbB u '${PASSWORD}'`],
    [`{"secrets":[ "a", \n "${TOKEN}" ,"${PASSWORD}"], "x": ["${TOKEN}"]}`],
    [`REDIS_AUTH="${TOKEN}" oauth: x auth=${PASSWORD}, Auth: '${TOKEN}'`],
    [`docker  login x -p ${PASSWORD} redis-cli --pass ${PASSWORD}`],
  ])('%j', text => {
    expect(anchoredScanMismatches(text)).toEqual([]);
  });
});

describe('linear time on a rule prefix repeated', () => {
  it.each([
    ['machine h login u password '],
    ["define('DB_PASSWORD', '"],
    ["['password'] = '"],
    ['htpasswd -b -c f u '],
    ['"tokens": ["ab", '],
    ['", "'],
    ['REDIS_AUTH='],
    ['docker login -x '],
    ['redis-cli -h x '],
    ['mysql --password x '],
  ])(
    '1 MB of %j costs at most 3x four times 256 KB of it',
    unit => expectLinearOnRepeats(findSecrets, unit),
    120_000,
  );
});

describe("MySQL's --password without a value prompts (round 47, a blind look-alike)", () => {
  it('the database after it is no password', () => {
    expect(findSecrets('mysql --user=root --password shopdb')).toEqual([]);
    expect(findSecrets('mysqldump -u ops --password orders > o.sql')).toEqual([]);
  });

  it('another command with the flag, or the attached form, is still found', () => {
    expect(foundSecrets(`curl --password ${PASSWORD} https://x.test`)).toEqual([
      ['GENERIC_SECRET', PASSWORD],
    ]);
    expect(foundSecrets(`mysql -u ops -p${PASSWORD} shop`)).toEqual([['GENERIC_SECRET', PASSWORD]]);
  });
});
