import { Flag, type Scanned } from './features';
import { firmCueReach } from './organisations';
import { inPlaceContext } from './places';
import { isSoftwareWord, nearToken } from './programming-languages';
import { roleNouns } from './role-nouns';
import type { NerSpan } from './tagger';
import { WordClasses } from './word-classes';

/**
 * Brands read as people or places (round 42, issue 17: firms of one word
 * with no cue, `Samsung`, `Airbus`, `Uber`, the largest class of the CV
 * errors and the seen fixtures). A PERSON or LOCATION span whose whole text
 * (one word, or two or three capitalised words with one blank between) is
 * a brand's name of the list below is
 *
 * - no entity when a word of software or a programming language's name is
 *   near it (`programming-languages.ts`' reach: 8 tokens on its line, 127
 *   characters after its start): a tool or product in technical text
 *   (`Grafana compiles the dashboards`… `deploy it with Kubernetes and
 *   Python`);
 * - else an ORGANIZATION (`Samsung recalled the phones`, `I flew with
 *   American Express`… `Goldman Sachs hired her`).
 *
 * It stays as tagged when its first word is a given name (`Ruby`, `Hugo`,
 * `Mercedes`: people are named so), after an honorific (`Mr Ford`) or a
 * lower-case cue of a person (`ask`, `tell`, `met`…: `ask Jenkins`), when a
 * capitalised word is right before or after it (part of a longer name), and
 * a LOCATION when its word is a gazetteer place or country (`Nokia` is a
 * town too). Each span reads a bounded number of tokens: linear.
 */

/**
 * The brands of `simple-icons` 16.37.0 (npm, CC0-1.0; the titles of its
 * 3,470 icons), lower-cased: the titles of one word of three or more letters
 * (2,547) and of two or three capitalised words of letters (610). Brands of
 * firms and of products alike; a whole public list, taken as it is.
 */
const oneWordBrands = `
  abb abbott abbvie abstract academia accenture accusoft accuweather acer acm acode actigraph
  activeloop activision activitypub actix acura ada adafruit adaway adblock adguard adidas
  adminer adonisjs adp adroll adyen aeroflot aeroméxico afdian affine afterpay aftership agora
  aib aiohttp aiqfome airasia airbnb airbrake airbus airbyte aircall airtable airtel ajv akamai
  akaunting akiflow alacritty alamy alby alchemy alfred algolia algorand alienware aliexpress
  alipay alist allegro alliedmodders alltrails almalinux alphaxiv alternativeto alwaysdata amd
  ameba amg amp amul ana anaconda analogue andela android angular anichart anilist ankermake anki
  ansible answer ansys anta antennapod anthropic antv anycubic anydesk anytype apache aparat
  apifox apostrophe appgallery appian appimage appium apple appmanager appsignal appsmith
  appveyor appwrite aqua aral arangodb arc arcgis archicad ardour arduino argo argos ariakit arlo
  arm artstation arxiv asana asciidoctor asciinema asda aseprite aspire assemblyscript asterisk
  astra astral astro asus atari atlasos atlassian atomgit auchan audacity audi audible
  audiobookshelf audioboom audiomack aurelia autentique authelia authentik autocad autocannon
  autodesk autohotkey autoit automattic autoprefixer autozone avajs avaloniaui avast avianca
  avira avm await awesomewm awwwards axios babel babelio backblaze backbone backendless backstage
  badoo baidu bakaláři bamboo bandcamp bandlab bandsintown barclays baremetrics barmenia basecamp
  baserow bastyon bat bata bazel beatport beats beatstars behance bem bentley bento bentobox
  bentoml bereal betfair betterdiscord bevy bigbasket bigbluebutton bigcommerce bilibili
  billboard bim binance bioconductor biome bisecthosting bit bitbucket bitcoin bitcomet
  bitdefender bitly bitrise bitsy bittorrent bitwarden bitwig black blackberry blazemeter blazor
  blender blibli blockbench blogger bloglovin blueprint bluesky bluesound bluetooth bmw
  boardgamegeek boat boeing bombardier bookalope bookbub bookmeter bookmyshow bookstack boost
  boosty boots bootstrap borgbackup bosch bose boulanger bower box braintree braintrust
  brandfetch brandfolder brave breaker brenntag brevo brex bricks broadcom bruno bsd bspwm buddy
  budibase buefy buffer bugatti bugcrowd buhl buildkite builtbybit bukalapak bulma bun bungie
  bunq burton buysellads buzzfeed bvg bytedance cachet cachyos caddy cadillac cafepress caixabank
  cakephp calendly camunda canonical canvas capacitor caprover cardano cardmarket carrd carrefour
  carto castbox castorama castro caterpillar cbc cbs ccc ccleaner celery celestron centos ceph
  cesium chai chainguard chainlink charles chartmogul chase chatbot chatwoot checkio checkmarx
  checkmk chedraui cheerio chef chemex chevrolet chocolatey chromatic chrysler cilium cinnamon
  cinny circle circleci circuitverse cisco citrix citroën civicrm civo clarifai claris clarivate
  claude clerk clickhouse clickup cline clion clockify clojure cloudbees cloudcannon cloudera
  cloudflare cloudinary cloudron cloudsmith cloudways clubforce clubhouse clyp cmake cncf cnes
  cnet cnn cobalt cockpit cocoapods cocos coda codacy codeberg codebuddy codecademy codeceptjs
  codechef codecov codecrafters codefactor codeforces codefresh codeigniter codemagic codementor
  codemirror codenewbie codeproject coder coderabbit codersrank coderwall codesandbox codeship
  codesignal codestream codewars codingame codio coffeescript coggle coinbase coinmarketcap
  comicfury comma commerzbank commitlint commodore composer comptia comsol conan concourse
  conekta confluence consul contabo containerd contao contensis contentful contentstack
  continente convertio convex cookiecutter coolify coppel cora coreboot coreldraw corsair
  couchbase coursera coveralls coze cpanel craftsman cratedb crayon creality credly crehana
  crewai crowdin crowdsource crunchbase crunchyroll cryengine cryptomator cryptpad crystal csdn
  css cts cucumber cultura curl curseforge cursor cyberdefenders cypress dacia daf dailymotion
  daisyui dapr dart darty dash dashlane dask databricks datacamp datadog datagrip dataiku
  datastax datev datocms datto dazn dbeaver dblp debian decentraland deepcool deepgram deepin
  deepl deepmind deepnote deepseek deezer deliveroo dell delphi delta deluge deno denon
  dependabot depositphotos devbox devexpress deviantart devpost devrant devuan dgraph dhl
  dialogflow diaspora dicebear dify digg digitalocean dior directus discogs discord discourse
  discover disqus disroot distrobox distrokid django dji dlib dlna dlthub dmm docker docsify
  doctrine docusaurus dogecoin doi dolby dolibarr dolphin doordash douban dovecot dovetail
  downdetector doxygen dpd dragonframe dreamstime dribbble drizzle drone drooble dropbox drupal
  dts dtube ducati duckdb duckduckgo dunked dunzo duolingo duplicati dvc dwm dynatrace eac eagle
  easyeda easyjet ebay ebox ecosia ecovacs edeka editorconfig educative edx effect egghead egnyte
  eight ejs elastic elasticsearch elavon electron elegoo element elementary elementor elevenlabs
  eleventy elgato elixir elk elm elsevier embarcadero embark emby emirates emlakjet endeavouros
  enpass ens ente enterprisedb envato epel epson eraser ericsson erlang erpnext esbuild esea
  eslgaming eslint esphome espressif esri etcd ethereum ethers etsy evernote excalidraw exercism
  exordo exoscale expedia expensify expo express expressvpn eyeem facebook faceit facepunch
  fairphone faker falco falcon fampay fandango fandom fanfou fantom farcaster fareharbor farfetch
  fastapi fastify fastlane fastly fathom fauna favro fawry fcc fedex fedora feedly ferrari
  ferretdb ffmpeg fiat fifa fig figma figshare fila filament filen files filezilla fillout fineco
  fing firebase firefish firefox fireship firewalla first fitbit fivem fiverr fizz flashforge
  flask flat flathub flatpak flickr flightaware flipboard floatplane flood floorp flower fluentd
  fluke flutter flux fluxer flyway fmod fnac folium folo fonoma fontbase fontforge foodpanda ford
  forgejo formbricks formik formspree formstack fortinet fortnite fortran fossa foursquare fox
  foxtel fozzy framer framework franprix frappe freebsd freecad freecodecamp freelancer
  freelancermap freenas freenet freepik freetube fresh freshrss frigate frontify fubo fueler
  fujifilm fujitsu fusionauth futurelearn fyle galaxus gamebanana gameloft gamemaker gandi garmin
  gatling gatsby gcore gdal geeksforgeeks genius gentoo geocaching geode geopandas gerrit getx
  ghost ghostery ghostfolio ghostty gimp gin giphy git gitbook gitcode gitconnected gitea gitee
  github gitkraken gitlab gitpod gitter glance glass glassdoor gleam glide glitch globus glovo
  gltf gmail gmx gnome gnu gocd godaddy godox gofundme gojek goland goodreads google gotomeeting
  grab gradio gradle grafana grammarly grapheneos graphite graphql grav gravatar graylog
  greenhouse greensock greptimedb gridsome grocy groupme groupon grunt gsap gsk gsma gstreamer
  gtk guilded gulp gumroad gumtree gunicorn gurobi gusto gutenberg habr hackaday hackerearth
  hackerone hackerrank hackmd hackster hal handshake happycow haproxy harbor harmonyos hashcat
  hashicorp hashnode haskell hasura havells haxe haystack hbo hcl headspace hearth hedera
  hedgedoc helium helix hellofresh helm helpdesk hepsiemlak here hermes heroui hetzner hevy
  hexlet hexo hey hibernate hilton hitachi hive hivemq homarr homeadvisor homebrew homebridge
  homepage homify honda honey honeybadger honeygain hono honor hootsuite hoppscotch hostinger
  hotjar hotwire houdini houzz hsbc htc htmx htop httpie huawei hubspot hugo humhub husqvarna
  hyper hyperskill hyperx hypit hypothesis hyprland hyundai iata ibeacon iberia iced iceland
  icinga icloud icomoon icon iconfinder iconify iconjar icq ieee ifixit ifood ifttt igdb ign
  iheartradio ikea ilovepdf imagej imdb imessage imgur immer immich imou improvmx indeed indieweb
  indigo inertia infiniti infinityfree influxdb infomaniak infoq infosys infracost infuse ingress
  inkdrop inkscape inoreader inquirer insomnia inspire instacart instagram instapaper instatus
  instructables instructure intel interactjs interbase intercom intermarche intigriti intuit
  invidious iobroker ionic ionos ios iota ipfs iris irobot isro issuu istio itunes itvx iveco
  jabber jaeger jameson jamstack jasmine javascript jbl jcb jdoodle jeep jekyll jellyfin jenkins
  jest jet jetblue jetbrains jfrog jhipster jinja jio jira jitpack jitsi joomla joplin jordan
  jouav jovian jpeg jquery jsdelivr jsfiddle json jsr jss juce juejin juke julia jupyter just
  justgiving kaggle kagi kaios kakao kakaotalk kamailio kando kaniko karakeep kashflow kaspersky
  katana kaufland kde kdenlive kedro keenetic keepassxc keeper keeweb kenmei kentico keploy keras
  keybase keycdn keycloak keystone kfc kia kibana kicad kick kickstarter kik kimi kinopoisk
  kinsta kirby kit kitsu kiwix klarna kleinanzeigen klm klook knative knime knip knowledgebase
  known koa koc kodak kodi kodular koenigsegg kofax komoot konami kong kongregate konva koreader
  kotlin koyeb kred krita ktm ktor kuaishou kubernetes kubespray kubuntu kucoin kueski kuma
  kununu kuula kyocera labex labview lada lamborghini langchain langflow langgraph languagetool
  lapce laragon laravel lastpass latex launchpad lazarus lazyvim lbry leaflet leanpub leetcode
  lefthook leica lemmy lenovo lens leptos lerna less letterboxd liberapay librarything
  libreoffice libretranslate libretube librewolf libuv lichess lidl lifx lightburn lighthouse
  lightning limesurvey line lineageos linear linkerd linkfire linksys linktree linkvertise
  linphone lintcode linux linuxserver liquibase listenhub listmonk lit litecoin literal
  litiengine livechat livejournal livekit livewire llvm lmms lobsters local localsend localxpose
  locust lodash logmein logseq logstash longhorn looker loom loop loopback loops lospec
  lottiefiles ltspice lua luanti luau lubuntu lucia lucid lucide ludwig lufthansa lumen lunacy
  luogu lutris lvgl lydia lyft maas macos macpaw macports magic magisk mahindra mailbox mailchimp
  mailgun mailtrap mainwp make makerbot malt malwarebytes mamp man manageiq mangacollec
  mangaupdates manjaro mantine mapbox mapillary maplibre maptiler mariadb markdown marko marriott
  marvelapp maserati mastercard mastercomfig mastodon matillion matomo matrix mattermost
  matternet mautic max maytag mazda maze mcafee mclaren mdblist mdbook mdx mealie mediafire
  mediamarkt mediapipe mediatek medium medusa meetup mega meilisearch meituan meizu mendeley
  mentorcruise merck mercurial mermaid messenger meta metabase metacritic metafilter metager
  metasploit meteor metro mewe mezmo micropython microstation microstrategy midi migadu mihon
  mihoyo mikrotik milanote milvus minds mini minimax minio mintlify minutemailer miraheze miro
  misskey mitsubishi mix mixcloud mixpanel mlb mlflow mobx mocha modal modelscope modin modrinth
  modx mojeek moleculer momenteo monero moneygram mongodb mongoose monica monkeytype monogame
  monoprix monster monzo moo moodle moonrepo moq moqups morrisons motorola movistar mozilla mpv
  mqtt msi mta mtr mubi mui mullvad multisim mumble muo mural musicbrainz myanimelist myget myob
  myshows myspace mysql müller namebase namecheap namemc namesilo nano napster nasa nativescript
  naver nba nbb nbc ndi ndr near nebula nec neon neovim neptune nestjs netapp netbsd netcup
  netdata netflix netgear netim netlify nette netto neutralinojs newegg newgrounds newpipe nexon
  nextbike nextcloud nextdns nextdoor nextflow nextra nfc nginx ngrok ngrx nhl nhost nicehash
  niconico nike nikon nim niri nissan nixos nodebb nodegui nodemon nokia nomad norco nordvpn
  norton norwegian note notebooklm notesnook notion notist novu now npm nrwl nsis ntfy nubank
  nucleo nuget nuke numba numpy nunjucks nushell nutanix nuxt nvidia nvm nxp nzxt observable
  obsidian obtainium ocaml oceanbase oclc oclif octave octoprint oculus odido odin odnoklassniki
  odoo odysee okcupid okta okx ollama omarchy oneplus onestream onlyfans onlyoffice onnx onstar
  oomol opel openbao openbsd opencage opencode opencritic opencv openfaas opengl openhab openid
  openjdk openlayers openmediavault openmined opennebula openproject openrouter openscad opensea
  opensearch openssl openstack openstreetmap opensuse opentelemetry opentext opentofu opentui
  openverse openvpn openwrt openzeppelin openzfs opera opnsense oppo opsgenie opslevel optimism
  optuna orange orcid org origin ory osano osf osgeo oshkosh osmand osmc otto outline overcast
  overleaf ovh owasp owncloud oxc oxygen oyo packagist packer packt paddle paddlepaddle padlet
  pagekit pagerduty pagseguro palantir panasonic pandas pandoc pandora pangolin pantheon
  paperspace passbolt passport pastebin patreon payback paychex payhip payoneer paypal paysafe
  paytm pcgamingwiki pdm pdq pearson peerlist peertube pelican peloton penny penpot percy
  perforce perl perplexity persistent personio peugeot pexels pfsense phabricator phonepe
  photobucket photocrowd photon photopea php phpbb phpmyadmin phpstorm piapro picnic picpay
  picrew picsart picxy pimcore pinboard pingdom pinia pino pinterest pipecat piped pipx piwigo
  pix pixabay pixelfed pixiv pixlr pkgsrc plane planet planetscale plangrid platformio platzi
  playcanvas playstation pleroma plesk plex plotly plume pluralsight plurk pnpm pocketbase podman
  poe poetry polars polestar polkadot poly polygon polywork pomerium porkbun porsche portainer
  portswigger posit postcss postgresql posthog postiz postman postmates powers preact prefect
  prek premid prepbytes prestashop presto prettier pretzel prevention prezi primefaces primeng
  primereact primevue printables prisma prismic probot processon processwire progate progress
  prometheus prosemirror prosieben proteus proton protondb protractor proxmox pterodactyl pubg
  publons pubmed pug pulumi puma puppet puppeteer purescript purgecss purism pushbullet pusher
  pwa pycharm pycqa pydantic pyg pypi pypy pyscaffold pysyft pytest python pythonanywhere pytorch
  pyup qantas qase qbittorrent qdrant qemu qgis qiita qiskit qiwi qlik qlty qmk qnap qodo
  qualcomm qualtrics qualys quantcast quantconnect quarkus quarto quasar quest quickbooks
  quicklook quicktime quicktype quizlet quora qwant qwen qwik qwiklabs qzone rabbitmq racket
  radar radarr railway rainmeter rainyun rakuten ram rancher rapid rarible rasa ratatui ravelry
  ray raycast raylib razer razorpay rclone react reactivex reactos readme reason recoil red
  redash redbubble reddit redis redmine redox redragon redsys redux redwoodjs reebok refine
  reflex relay remark remix renault render renovate renren replicate replit rescript rescuetime
  researchgate resend resharper retool retroarch retropie revanced revenuecat reverbnation
  revolut rewe rezgo rhinoceros rich rider rime ring ripple riseup rive robinhood roblox roboflow
  rocket rocksdb roku rollbar rolldown rook roon root roots ros rossmann roundcube rsocket rss
  rtl rtlzwei rtm rté rubocop ruby rubygems rubymine ruff rumahweb rumble rundeck runkeeper
  runkit rust rustdesk rustfs rxdb ryanair rye sabanci safari sage sagemath sahibinden salla
  samsung sanic sanity sap sartorius sass satellite saturn saudia scala scalar scaleway scan
  scania scilab scipy scopus scrapbox scrapy scratch screencastify scrimba scrollreveal scylladb
  seafile seagate searxng seat seatgeek securityscorecard sefaria sega selenium sellfy semrush
  semver sencha sennheiser sensu sentry sepa sequelize servbay serverless session sessionize
  setapp setuptools sfml shadow sharex sharp shazam shell shelly shikimori shopee shopify
  shopware shortcut showpad showtime showwcase sidekiq sidequest siemens sifive signal similarweb
  simkl simplelocalize simplelogin simplenote simplex singlestore sitecore sitepoint siyuan
  skaffold skeleton sketch sketchfab sketchup skillshare sky skypack slackware slashdot slickpic
  slides slideshare slint smart smartthings smoothcomp smrt smugmug snapchat snapcraft snapdragon
  sncf snort snowflake snowpack snyk socket softcatalà softpedia sogou solana solid solidity
  sololearn solus sonar sonarr sonatype songkick songoda sonicwall sonos sony soriana soundcharts
  soundcloud sourceforge sourcehut sourcetree spacemacs spaceship spacex spacy sparkasse sparkfun
  sparkpost spdx spectrum speedtest speedypage sphinx spidermonkey spigotmc spine spinnaker
  splunk spond spotify spotlight spreadshirt spreaker spring sqlalchemy sqlite square squarespace
  ssrn sst stackbit stackblitz stackedit stackhawk stackshare stadia staffbase stagetimer
  standardjs starbucks stardock starship startpage starz statamic statista statuspage statuspal
  steam steamdb steamworks steelseries steem steemit steinberg stellar stencil stencyl stimulus
  stmicroelectronics stockx stopstalk storyblok storybook strapi strava streamlabs streamlit
  streamrunners stremio stripe strongswan stryker stubhub stylelint styleshare stylus subaru
  substack subversion suckless sui suitest sumup suno sunrise supabase supercell supercrease
  supermicro surfshark surrealdb surveymonkey suse suzuki svelte svg svgo svgtrace swagger swarm
  sway swc swift swiggy swiper swisscows swr symantec symbolab symfony symphony sympy syncthing
  synology tabelog tablecheck tails tailscale taipy talend talenthouse talos tamiya tampermonkey
  tangled tanstack taobao tapas target tarom tarteaucitron task tasmota tata tauri taxbuzz teal
  teamcity teamspeak teamviewer techcrunch ted teepublic teespring tekton telefónica telegram
  telegraph telenor temporal tensorflow teradata teratail termius terraform tesco tesla testcafe
  testin testrail tether textpattern textual tga thangs thanos thingiverse things thinkpad
  thirdweb threadless threads threema thumbtack thunderbird thunderstore thymeleaf ticketmaster
  ticktick tidal tidb tiddlywiki tide tidyverse tietoevry tiktok tile timescale tina tinder
  tindie tinkercad tinygrad tinyletter tistory tldraw tmux todoist toggl tokio toll toml
  tomorrowland tomtom ton topcoder toptal torizon toshiba totvs tourbox tower toyota tqdm traccar
  tradingview trae trailforks trainerroad trakt transifex transmission traxsource treehouse
  trello tresorit treyarch trezor tricentis trilium triller trillertv trimble trino tripadvisor
  trivago trivy trmnl trove trpc truenas trueup trulia trustpilot tryhackme tubi tui tumblr turbo
  turborepo turbosquid turso tuta twenty twinkly twinmotion twitch typeform typeorm typer
  typescript typst uber ubiquiti ubisoft ubuntu udacity udemy ufc uikit uipath ukca ultralytics
  ulule umami umbraco umbrel uml unacademy undertale unicode unilever uniqlo unity unjs unlicense
  unocss unpkg unraid unsplash unstop untappd upcloud uphold uplabs upptime ups upstash upwork
  uservoice usps utorrent vaadin vagrant vala valorant valve vapor vault vaultwarden vauxhall
  vbulletin vectary vectorworks veeam veed veepee vega vegas velocity velog vencord venmo vercel
  verdaccio veritas verizon vespa vestel vexxhost vfairs viadeo viaplay viber viblo
  victoriametrics vikunja vim vimeo vinted virgin virtualbox virustotal visa visx vite vitepress
  vitess vitest vivaldi vivino vivint vivo vllm vmware vodafone voelkner volkswagen volvo vonage
  vox vrchat vsco vscodium vtex vuetify vueuse vulkan vultr vyond wacom wagmi wagtail wails
  wakatime walkman wallabag walletconnect wantedly wappalyzer warp wasabi wasmcloud wasmer
  watchtower wattpad wayland waze wazirx weasyl webassembly webauthn webdriverio webex webflow
  webgl webgpu weblate webmin webmoney webpack webrtc webstorm webtoon webtrees wechat wegame
  wellfound wemo weread wetransfer wezterm wgpu whatsapp wikibooks wikidata wikipedia wikiquote
  wikisource wikiversity wikivoyage winamp windsurf wine wipro wire wireguard wireshark wise wish
  wistia wix wolfram wondershare woo woocommerce wordpress workplace wpexplorer wwe wwise wxt
  wykop wyze xampp xcode xendit xero xfce xiaohongshu xiaomi xing xml xmpp xrp xsplit xstate
  xubuntu xyflow yaak yabai yale yaml yarn yelp yeti yew yii yoast yolo youhodler youtube yubico
  yunohost zaim zalando zalo zap zapier zara zazzle zcash zcool zdf zebpay zectrix zelle zend
  zendesk zenn zenodo zensar zensical zerodha zerotier zettlr zhihu zig zigbee ziggo zilch zilliz
  zillow zincsearch zingat zod zoho zoiper zola zomato zoom zorin zotero zsh zulip zyte öbb škoda
  żabka
`;

const multiWordBrands = `
  ab download manager, actual budget, adblock plus, advent of code, aegis authenticator,
  agent skills, ai dungeon, air canada, air china, air france, air india, air serbia,
  air transat, airplay audio, airplay video, akasa air, albert heijn, aldi nord, aldi süd,
  alibaba cloud, alpine linux, american airlines, american express, android auto, android studio,
  animal planet, ant design, apache airflow, apache ant, apache arrow, apache avro,
  apache cassandra, apache cloudstack, apache cordova, apache couchdb, apache dolphinscheduler,
  apache doris, apache druid, apache echarts, apache flink, apache freemarker, apache groovy,
  apache guacamole, apache hadoop, apache hbase, apache hive, apache jmeter, apache kafka,
  apache kylin, apache lucene, apache maven, apache netbeans ide, apache nifi, apache openoffice,
  apache parquet, apache pdfbox, apache pulsar, apache rocketmq, apache solr, apache spark,
  apache storm, apache superset, apache tomcat, apm terminals, apollo graphql, app store,
  apple arcade, apple music, apple news, apple pay, apple podcasts, apple tv, arch linux,
  ark ecosystem, arm keil, ars technica, artifact hub, artix linux, asahi linux, aston martin,
  autodesk maya, autodesk revit, awesome lists, axis bank, bambu lab, base ui,
  basic attention token, beekeeper studio, beijing subway, better auth, better stack, big cartel,
  bio link, bitcoin cash, bitcoin sv, blackmagic design, bmc software, bnb chain,
  boehringer ingelheim, bohemia interactive, botble cms, boxy svg, british airways, burger king,
  burp suite, cairo graphics, cairo metro, campaign monitor, car throttle, carlsberg group,
  cash app, cd projekt, chakra ui, change detection, chia network, china eastern airlines,
  china railway, china southern airlines, chrome web store, chupa chups, cirrus ci, claude code,
  clever cloud, cloud foundry, cloud native build, cloudflare pages, cloudflare workers,
  cockroach labs, code climate, coding ninjas, collabora online, common lisp,
  common workflow language, compiler explorer, contactless payment, contributor covenant,
  conventional commits, cooler master, copa airlines, corona engine, corona renderer,
  countingworks pro, craft cms, create react app, creative commons, creative technology,
  crew united, critical role, css design awards, css modules, css wizardry, custom ink,
  dark reader, das erste, dassault systèmes, davinci resolve, dazhong dianping, dc entertainment,
  decap cms, deno deploy, der spiegel, deutsche bahn, deutsche bank, deutsche post,
  deutsche telekom, deutsche welle, development containers, diners club, dodo payments,
  douban read, ds automobiles, eclipse adoptium, eclipse che, eclipse ide, eclipse jetty,
  eclipse mosquitto, edge impulse, eight sleep, elastic cloud, elastic stack, electron fiddle,
  envoy proxy, epic games, equinix metal, esoteric software, ethiopian airlines, etihad airways,
  european union, event store, experts exchange, facebook gaming, facebook live, fido alliance,
  firefly iii, firefox browser, fish audio, fluent bit, font awesome, fossil scm,
  foundry virtual tabletop, frontend mentor, fuga cloud, fur affinity, furry network,
  game developer, game jolt, game science, garuda linux, general electric, general motors,
  git extensions, git lfs, github actions, github copilot, github pages, github sponsors,
  gnome terminal, gnu bash, gnu emacs, gnu icecat, gnu privacy guard, godot engine,
  goldman sachs, google admob, google ads, google adsense, google analytics, google apps script,
  google assistant, google authenticator, google bigquery, google bigtable, google calendar,
  google cardboard, google cast, google chat, google chrome, google chronicle, google classroom,
  google cloud, google cloud composer, google cloud spanner, google cloud storage, google colab,
  google dataflow, google dataproc, google docs, google drive, google earth, google earth engine,
  google fonts, google forms, google gemini, google home, google jules, google keep, google lens,
  google maps, google marketing platform, google meet, google messages, google nearby,
  google news, google pay, google photos, google play, google scholar, google search console,
  google sheets, google slides, google street view, google tag manager, google tasks,
  google translate, google tv, gradle play publisher, grand frais, greasy fork, great learning,
  guangzhou metro, guitar pro, hack club, hack the box, hacker noon, hatena bookmark, hbo max,
  hdfc bank, headless ui, headphone zone, helium browser, helly hansen, help scout,
  heroic games launcher, hi bob, home assistant, htc vive, html academy, hugging face,
  humble bundle, icici bank, image toolbox, immersive translate, indian super league,
  indie hackers, inductive automation, intellij idea, interaction design foundation,
  internet archive, internet computer, invoice ninja, japan airlines, jetpack compose,
  jfrog pipelines, jira software, john deere, jr group, json web tokens, juniper networks,
  just eat, kali linux, karlsruher verkehrsverbund, kasa smart, kde plasma, khan academy,
  khronos group, kingston technology, langchain corporate, laravel horizon, laravel nova,
  leader price, legacy games, lemon squeezy, leroy merlin, libreoffice base, libreoffice calc,
  libreoffice draw, libreoffice impress, libreoffice math, libreoffice writer, linux containers,
  linux foundation, linux mint, linux professional institute, lion air, lm studio, loot crate,
  lot polish airlines, magasins u, major league hacking, mamba ui, mariadb foundation,
  material design, material design icons, mdn web docs, medibang paint, mercado pago, meta ai,
  micro editor, mistral ai, mock service worker, model context protocol, moonshot ai,
  moscow metro, msi business, mx linux, namu wiki, nano stores, national grid, national rail,
  nederlandse spoorwegen, netease cloud music, new api, new balance, new relic, new york times,
  nginx proxy manager, nobara linux, nordic semiconductor, noun project, obs studio,
  octane render, october cms, octopus deploy, oh dear, omada cloud, open access, open badges,
  open bug bounty, open collective, open containers initiative, open source hardware,
  open source initiative, openai gym, openapi initiative, openjs foundation, opera gx,
  orchard core, organic maps, paddy power, pagespeed insights, palo alto networks,
  palo alto software, papers with code, paradox interactive, parity substrate, parrot security,
  payload cms, peak design, pegasus airlines, philips hue, phoenix framework, phosphor icons,
  pi network, piaggio group, picard surgelés, pine script, pioneer dj, pivotal tracker,
  plausible analytics, player fm, playstation portable, playstation vita, pocket casts,
  podcast addict, podcast index, polymer project, premier league, private division,
  private internet access, pro tools, processing foundation, product hunt, proton calendar,
  proton drive, proton mail, proton vpn, qatar airways, qubes os, rad studio, radiant earth,
  radio france, radix ui, rakuten kobo, raspberry pi, react bootstrap, react hook form,
  react query, react router, react table, reactive resume, reason studios, red bull,
  red candle games, red hat, refined github, reka ui, reliance industries limited,
  remedy entertainment, resurrection remix os, retro achievements, rimac automobili, riot games,
  ritz carlton, roam research, roblox studio, robot framework, rockstar games,
  rockwell automation, rocky linux, root me, roots bedrock, roots sage, rotary international,
  rotten tomatoes, rstudio ide, ruby sinatra, sailfish os, salt project, samsung pay, sauce labs,
  schneider electric, scp foundation, scrum alliance, scrutinizer ci, semantic scholar,
  semantic ui, semantic ui react, semantic web, semaphore ci, server fault, shanghai metro,
  shenzhen metro, silver airways, simple analytics, simple icons, simple icons cdn, sina weibo,
  singapore airlines, smashing magazine, social blade, sonarqube cloud, sonarqube server,
  source engine, southwest airlines, spark ar, speaker deck, sphere online judge, spring boot,
  spring security, spyder ide, square enix, srg ssr, stack exchange, stack overflow,
  standard resume, star trek, starling bank, steam deck, sublime text, subtitle edit, sumo logic,
  super user, são paulo metro, taco bell, taichi graphics, taichi lang, tailwind css,
  tata consultancy services, tencent hy, testing library, the algorithms, the boring company,
  the conversation, the finals, the guardian, the irish times, the mighty, the models resource,
  the movie database, the north face, the odin project, the planetary society, the register,
  the sounds resource, the spriters resource, the storygraph, the washington post,
  the weather channel, thurgauer kantonalbank, ticket tailor, tilda publishing, toggl track,
  tokyo metro, tor browser, tor project, traefik mesh, traefik proxy, travis ci, trend micro,
  trusted shops, try it online, turkish airlines, tuxedo computers, tv time, uber eats,
  ubuntu mate, under armour, united airlines, united nations, unreal engine, uptime kuma,
  vanilla extract, vector logo zone, victron energy, vimeo livestream, virgin atlantic,
  virgin media, visual paradigm, viva wallet, void linux, voron design, vowpal wabbit, wear os,
  web awesome, wells fargo, western union, when i work, wikimedia commons, wikimedia foundation,
  wizz air, wolfram language, wolfram mathematica, wondershare filmora,
  world health organization, wp engine, wp rocket, xda developers, y combinator,
  yamaha corporation, yamaha motor corporation, yandex cloud, youtube gaming, youtube kids,
  youtube music, youtube shorts, youtube studio, youtube tv, zebra technologies, zed industries,
  zen browser
`;

export const brandNames: ReadonlySet<string> = new Set([
  ...oneWordBrands.split(/\s+/).filter(Boolean),
  ...multiWordBrands
    .split(',')
    .map(name => name.trim())
    .filter(Boolean),
]);

/**
 * Firm words of `@cspell/dict-companies` 3.2.14 (npm, MIT, Street Side Software; the words of
 * 2,321 company names), round 44: the words of four or more letters in title case that no list
 * of the tagger holds (common words of English prose and of the benign prompts, names, first
 * names, cities, countries), that those texts write in lower case less often than capitalised,
 * no brand above, no language name and no word ending like an adjective of a people (`-ian`,
 * `-ese`…): 626; rebuilt by `scripts/train/ner/companies.ts`.
 * One word alone that the tagger read as a PERSON is the firm (`Iberdrola`, `Lukoil`,
 * `Holcim`), by the rules of `isBrand`; a LOCATION stays one (`Kentucky`, `Hokkaido` are in
 * the list: regions are in no list of the tagger's).
 */
export const companyWords: ReadonlySet<string> = new Set(
  `
  abiomed abios abiosgaming adecco adobe adsterra aegon aetna aflac agari agilent agricole ahold
  airgas airways aisin alfresa alixpartners alleghany allegion allergan alliant allianz allstate
  alstom altri altria amazon ambientia amcor ameren ameriprise amerisourcebergen amgen amphenol
  amtrack andersons anheuser-busch ansteel appetize appointedd aptiv aramark arcelormittal
  archer-daniels-midland argentaria arize assicurazioni assurant astrazeneca atmos auto-owners
  autoliv autonation avalonbay avito baden-wurttemberg bakeries bancorp bancshares bankengruppe
  bankin baosteel bazaarvoice beihang bertelsmann billiton bio-rad biogen biomet bitnami bjango
  bloomreach blueway borgwarner bouygues bradesco brandwatch brewblox bridgestone bristol-myers
  broadridge brown-forman bunnings cablevision caesars calpine caltech caltex camerfirma capgemini
  caremark carmax castparts catalent cathay causely cboe cegid celgene centene centerpoint
  centrica centurylink cepton cerner certum chambersign chartered chemchina chipotle chocolately
  chronosphere chubu chulalongkorn cinemark citibank citigroup citylink clorox coca-cola
  codecentric codento cognizant colgate-palmolive collibra comcast comerica commonwealth comodo
  compal complutense con-way conagra conocophillips consolidated copart coralogix core-mark
  corteva costco criteo cybertrust cybozu dachser dai-ichi daimler daiwa danone datanami datang
  datorama dayjs dazs delhaize deloitte denki denso dentsply deutsche dexcom dexia dezzai
  diamondback digia digicert directv domtar douyin ecolab ecole ecopetrol electricite eleuther
  elfsight emojipedia enel entergy entrust environnement equifax equinix equities estée euris
  evergy eversource exelon expeditors exxon fastenal fenosa finmeccanica fireblocks firstenergy
  fiserv flattr fleetcor flextronics flipkart flowserve fluor foncire fonticons fortive france-klm
  freeport-mcmoran freightlinx fresenius freshworks fudan futurice gadjah gamestop gasterra
  gazprom gebruder geely genworth geotrust glaxosmithkline glencore globalsign gmbh gofore
  graphcool graybar hanesbrands hanyang hapag-lloyd harley-davidson hasbro headhunter healthpeak
  hebei henan heptio heraeus heriot-watt hesai hewlett-packard hindustan hipercard hokkaido holcim
  hollyfrontier hologic howmet huaneng huazhong häagen iberdrola icahn idealo idec idemitsu idexx
  illumina imgix imperva inbev incyte ineos infisical ingredion innoviz institute integrys
  intercontinental interpublic intesa invesco isovalent issuehunt itausa-investimentos itochu
  iubenda jabil jaguar jemmic jiangsu jiaotong jizhong joyent kabbage kabushiki kailuan kalgin
  kansai keio kentucky keycorp keysight kimberly-clark kimco kragpur kupivip kyushu lamoda
  landesbank langfuse langtrace lastfm leaseweb leidos leishen lennar leucadia lexisnexis liatrio
  librato lifesciences lightstep linkedin livox lloyds lockheed loews logistics logitech logz
  lonza lorillard lukoil lumibird luminar lumitics lutherans lyondellbasell maersk mahidol
  manpowergroup manulife mapfre marketaxess markit marubeni maruhan massachusetts meadwestvaco
  medco medipal medtronic meiji melanox mercari mercedes-benz metallurgical metlife microchip
  micron microsoft mid-america midjourney migros minmetals mirantis mobis mockito moller-maersk
  mondelez mondiale mondoo moovit mouseflow movil musixmatch napatech nasdaq navistar newmont
  nextel nextera nginxinc nintendo nippon nisource nitor nordcloud nordea normale nortonlifelock
  novartis nubity nucor nullsoft oaktree observiq oilwell omnicare omnicom omnition openai
  openbase opendns opscode otago otechie outreachy owens-illinois ozforex papaki paribas
  parker-hannifin paycom paylocity pennsylvania pentair penteston pepsi pepsico percona
  perkinelmer petrobras petrochemical petronas petsmart pfizer pharmahandel photonics pixar
  politecnico polytechnic praxair priceline prologis publix pultegroup qorvo quanergy quanta
  queensland quesmaorg quintiles quovadis rabobank rackspace randstad raytheon reaktor realogy
  realty rebrandly redbud regeneron reinsurance relex rentals repsol resmed responsys rock-tenn
  rohlig rosneft rubbermaid ruuvi safeway salesforce sandisk sanmina sanofi sberbank schlumberger
  seaboard seiki sekiyu semilux semmle sempra sensedia servicenow shagang shandong shanxi shenhua
  sherwin-williams shougang showa silicom sinnerschrader sinochem sinomach sinopec sirona
  sismology skyworks slevomat slimpay smania smarkets smartystreets snapple societe sodexo
  softbank softlayer solarwinds sorbonne sourcegraph spectra spirent starfield starwood stationers
  statoil steelers stellantis stimulsoft sumitomo suncor sungkyunkwan sunoco suntrust superfeedr
  supervalu supérieure surgutneftegas suzuken swisscom swyftx synnex synopsys sysco take-two targa
  technipfmc techradar teledyne teleflex telefonica telekom telia telstra tencent tenneco teradyne
  terex tewoo textron thermo thrivent thyssenkrupp tidelift tieto tongji torchmark
  toronto-dominion traceloop transdigm translogix transnational travelcenters truist tsinghua
  twilio twitter ulta ultrapar unicredit unitedhealth universiteit unum urbana-champaign vanguard
  vasona vattenfall veikkaus velodyne veolia verisec verisign verisk viacom viacomcbs vincit
  visteon visy vivendi vornado wabtec wal-mart walgreen walgreens walmart waseda weaviate wedos
  weiqiao wellcare wellpoint welltower wesfarmers westinghouse westpac westrock weyerhaeuser
  whampoa wildberries windstream wisconsin-madison wisetech wistron woolworths xbox xcel xerox
  xilinx xstrata xware xylem yahoo yamaha yandex yat-sen yeshiva yext yleisradio yonsei yusen
  zappos zebra zentrale zhejiang zoetis zscaler zuora
`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lower-case words right before a name that say it is a person's (`ask Jenkins`). */
const personCues: ReadonlySet<string> = new Set(
  'ask asked asks tell told tells met meet meets named dear thank thanks'.split(' '),
);

const lowerOf = (scanned: Scanned, index: number) => scanned.words.lower[scanned.word[index]!]!;

/** Whether the span of tokens `[first, last]` is a brand read as a person or place by mistake. */
function isBrand(
  text: string,
  scanned: Scanned,
  span: NerSpan,
  first: number,
  last: number,
): boolean {
  const { flags, count } = scanned;
  if (last - first > 2 || (flags[first]! & Flag.FirstName) !== 0) return false;
  // A one-word brand a name list holds is as often a surname (`Tesla`, `Cisco`): left as tagged.
  if (first === last && (flags[first]! & Flag.Name) !== 0) return false;
  for (let index = first; index <= last; index++)
    if ((flags[index]! & (Flag.Title | Flag.Upper)) !== Flag.Title) return false;
  const value = text.slice(span.start, span.end).toLowerCase();
  if (!brandNames.has(value)) {
    if (first !== last || span.type !== 'PERSON' || !companyWords.has(value)) return false;
    if (!firmWordContext(scanned, first)) return false;
  }
  if (
    span.type === 'LOCATION' &&
    (first !== last || (flags[first]! & (Flag.Place | Flag.Country)) !== 0)
  )
    return false;
  if (first > 0) {
    const before = flags[first - 1]!;
    const capitalised =
      (before & Flag.Honorific) !== 0 ||
      ((before & (Flag.Title | Flag.Upper)) !== 0 && (before & Flag.Common) === 0);
    if (capitalised && scanned.newline[first] === 0) return false;
    if ((before & Flag.Lower) !== 0 && personCues.has(lowerOf(scanned, first - 1))) return false;
    // `Mr. Ford`: an honorific and its full stop.
    if (
      first > 1 &&
      text.charCodeAt(scanned.start[first - 1]!) === 46 &&
      (flags[first - 2]! & Flag.Honorific) !== 0
    )
      return false;
  }
  const after = last + 1;
  if (
    after < count &&
    scanned.newline[after] === 0 &&
    (flags[after]! & (Flag.Title | Flag.Upper)) !== 0
  )
    return false;
  return true;
}

/**
 * `spans` (text order) with the brands read as people or places retyped or
 * dropped (see above). Linear: one pass over spans and tokens.
 */
export function brandOrganisations(text: string, scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  let kept: NerSpan[] | undefined;
  let token = 0;
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    while (token < scanned.count && scanned.start[token]! < span.start) token++;
    if (span.type !== 'PERSON' && span.type !== 'LOCATION') {
      kept?.push(span);
      continue;
    }
    // The span's last token: a PERSON or LOCATION span is at most 64 characters.
    let last = token;
    while (last + 1 < scanned.count && scanned.end[last + 1]! <= span.end) last++;
    if (
      token < scanned.count &&
      scanned.start[token] === span.start &&
      scanned.end[last] === span.end &&
      isBrand(text, scanned, span, token, last)
    ) {
      kept ??= spans.slice(0, index);
      if (!nearToken(scanned, token, other => isSoftwareWord(scanned, other)))
        kept.push({ type: 'ORGANIZATION', start: span.start, end: span.end });
      continue;
    }
    kept?.push(span);
  }
  return firmWordsLeftOutside(scanned, kept ?? spans);
}

/**
 * Whether a firm word (`companyWords`) at `index` may be the firm: no person cue right before it
 * in any case (`Ask Fresenius about it`: a cue opening a sentence), no lower-case `the`, no place context
 * (`inPlaceContext`: `We drove through Kentucky`; the list holds a few regions, `Kentucky`,
 * `Hokkaido`, words of firms' names that no list of the tagger holds).
 */
function firmWordContext(scanned: Scanned, index: number): boolean {
  if (index > 0 && scanned.newline[index] === 0) {
    const before = lowerOf(scanned, index - 1);
    if (personCues.has(before)) return false;
    // A firm's name takes no article: `the Amazon` is the river.
    if (before === 'the' && (scanned.flags[index - 1]! & Flag.Lower) !== 0) return false;
    // Round 44b: a person's role right before (`Our tenant Fresenius paid late`).
    if (roleNouns.get(before) === 1) return false;
  }
  // Round 44b: a personal pronoun after it in its sentence (`Pfizer told me her password`): a
  // surname, hidden as the tagger read it when PERSON alone is asked for. At most 6 tokens read,
  // the pronoun ending within `firmCueReach` characters of the name's start (round 45: 250
  // blanks or a 300-letter word between them put it past what window mode holds, so generate
  // hid the name and every stream released it; past the reach it is no cue in both modes).
  const reach = scanned.start[index]! + firmCueReach;
  for (let after = index + 1; after < scanned.count && after <= index + 6; after++) {
    if ((scanned.flags[after]! & Flag.SentenceStart) !== 0) break;
    if (scanned.end[after]! > reach) break;
    if (personPronouns.has(lowerOf(scanned, after))) return false;
  }
  return !inPlaceContext(scanned, index);
}

/** Pronouns only a person takes. */
const personPronouns: ReadonlySet<string> = new Set(
  'he she him his her hers himself herself'.split(' '),
);

/** Flags that keep a firm word the tagger left outside from being one: a listed word of any kind. */
const listedWord =
  Flag.Common | Flag.Name | Flag.FirstName | Flag.Place | Flag.Country | Flag.Honorific;

/**
 * Whether each word id is one of `companyWords` (round 48, hC: one look-up per word of the word
 * table, not a set look-up per capitalised token of every chunk).
 */
const companyClass = new WordClasses([companyWords]);

/**
 * `spans` (text order) and the firm words (`companyWords`) the tagger left outside every span
 * (round 44: `Wesfarmers bought the chain`): one word in title case, in no list of the tagger's
 * (its Bloom filters too), with no capitalised word right before it on its line (but a
 * sentence's first) or after it, no honorific before it, in a firm word's context
 * (`firmWordContext`) and with no word of software near it, is an ORGANIZATION. One pass over
 * tokens and spans: linear.
 */
function firmWordsLeftOutside(scanned: Scanned, spans: NerSpan[]): NerSpan[] {
  const { count, flags, newline, start: starts, end: ends } = scanned;
  let added: NerSpan[] | undefined;
  let span = 0;
  const firms = companyClass.of(scanned);
  const ids = scanned.word;
  for (let index = 0; index < count; index++) {
    const flag = flags[index]!;
    if ((flag & (Flag.Title | Flag.Upper)) !== Flag.Title || (flag & listedWord) !== 0) continue;
    if (firms[ids[index]!] === 0) continue;
    while (span < spans.length && spans[span]!.end <= starts[index]!) span++;
    if (span < spans.length && spans[span]!.start < ends[index]!) continue;
    if (index > 0 && newline[index] === 0) {
      const before = flags[index - 1]!;
      if ((before & (Flag.Title | Flag.Upper)) !== 0 && (before & Flag.SentenceStart) === 0)
        continue;
      if ((before & Flag.Honorific) !== 0) continue;
    }
    if (!firmWordContext(scanned, index)) continue;
    const after = index + 1;
    if (after < count && newline[after] === 0 && (flags[after]! & (Flag.Title | Flag.Upper)) !== 0)
      continue;
    if (nearToken(scanned, index, other => isSoftwareWord(scanned, other))) continue;
    added ??= [];
    added.push({ type: 'ORGANIZATION', start: starts[index]!, end: ends[index]! });
  }
  if (added === undefined) return spans;
  return [...spans, ...added].sort((a, b) => a.start - b.start);
}
