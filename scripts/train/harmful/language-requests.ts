/**
 * Hand-written ordinary requests in the languages whose only harmful rows
 * are MultiJail's (Swahili, Javanese, Vietnamese, Thai, Arabic, Bengali,
 * Korean, Chinese, Italian) or AILuminate's (French), plus English writing
 * requests on ordinary topics (persuasive essays, debate speeches, op-eds),
 * as negatives of the harmful-request model (issue 19, round 49, hG).
 *
 * Why: with one source left out, a language whose benign rows all come from
 * that source has harmful rows only, so its script and function words carry
 * the label (round 48's confound). Measured on the shipped trainer, left
 * out: XQuAD's Vietnamese questions 341 of 448 flagged, Arabic 187 of 449,
 * Thai 86 of 448 (every other XQuAD language ≤ 10); tldr's Bengali 49 of
 * 113, French 49 of 108, Italian 26 of 117; and no Swahili or Javanese
 * benign row exists in the corpora at all. "persuasive" is nearly only in
 * HarmBench's harmful requests.
 *
 * Written for this project from kinds (cooking, weather and travel, a book
 * for a child, an e-mail to a teacher, a persuasive paragraph on recycling,
 * a science explanation, a history date, a slow computer, a birthday gift,
 * boiling an egg, exercises for back pain, a three-day trip), the same
 * twelve kinds in each language; no corpus text. The pinned test prompts
 * (rice, maize, pho, learning English, maths homework, a job application
 * letter, school start times) were left out on purpose, so they stay
 * report cases; a test checks that none of the report fixtures or pinned
 * prompts is generated.
 *
 * They train as a source of their own (`synthetic:language-requests`,
 * ordinary prompts), each language weighing as a source of its own (its
 * rows n^-0.5 within the language), are never in the calibration slice,
 * and have no fold of their own in leave-one-source-out runs (they are not
 * reported: every number stays on the collections' rows). Off by default:
 * neither weighting passed its keep rule (recall and look-alike medians;
 * model card, "Round 49 (hG)").
 */
import { fnv } from '../injection-data';
import type { HarmfulRow } from './harmful-data';

/** The leave-one-source-out group of these rows. */
export const LANGUAGE_REQUESTS_GROUP = 'synthetic:language-requests';

/** Twelve ordinary requests per language, the same kinds in the same order. */
const byLanguage: Record<string, readonly string[]> = {
  sw: [
    'Ninawezaje kuoka mkate nyumbani?',
    'Hali ya hewa ikoje Mombasa mwezi Julai?',
    'Nipendekezee kitabu kizuri kwa mtoto wa miaka kumi.',
    'Nisaidie kuandika barua pepe kwa mwalimu wangu kuomba muda zaidi wa kazi.',
    'Andika aya fupi ya kushawishi kuhusu umuhimu wa kuchakata taka.',
    'Eleza usanisinuru kwa maneno rahisi.',
    'Vita vya Kwanza vya Dunia viliisha mwaka gani?',
    'Kompyuta yangu ni polepole sana, nifanye nini?',
    'Ni zawadi gani nzuri ya siku ya kuzaliwa kwa mama yangu?',
    'Yai linachemshwa kwa dakika ngapi?',
    'Ni mazoezi gani yanasaidia maumivu ya mgongo?',
    'Panga safari ya siku tatu kwenda Zanzibar.',
  ],
  jv: [
    'Piye carane nggawe roti ing omah?',
    'Cuaca ing Yogyakarta wulan Juli kaya apa?',
    'Tulung wenehi saran buku sing apik kanggo bocah umur sepuluh taun.',
    'Tulung ewangi aku nulis layang kanggo guruku njaluk tambahan wektu.',
    'Tulisen paragraf cekak kanggo ngajak wong-wong ndaur ulang sampah.',
    'Jelasna fotosintesis nganggo basa sing gampang.',
    'Perang Donya Kapisan rampung taun pira?',
    'Laptopku alon banget, kudu piye?',
    'Hadiah ulang taun apa sing apik kanggo ibuku?',
    'Endhog kudu digodhog pirang menit?',
    'Olahraga apa sing apik kanggo lara boyok?',
    'Gawekna rencana plesir telung dina menyang Bali.',
  ],
  vi: [
    'Cách nướng bánh mì ở nhà như thế nào?',
    'Thời tiết ở Đà Nẵng vào tháng Bảy thường như thế nào?',
    'Hãy gợi ý một cuốn sách hay cho trẻ mười tuổi.',
    'Giúp tôi viết email cho giáo viên xin thêm thời gian nộp bài.',
    'Viết một đoạn văn ngắn thuyết phục mọi người tái chế rác thải.',
    'Giải thích quá trình quang hợp một cách đơn giản.',
    'Chiến tranh thế giới thứ nhất kết thúc vào năm nào?',
    'Máy tính của tôi chạy rất chậm, tôi nên làm gì?',
    'Nên tặng quà sinh nhật gì cho mẹ tôi?',
    'Luộc trứng mất bao nhiêu phút?',
    'Những bài tập nào tốt cho người bị đau lưng?',
    'Lên kế hoạch cho chuyến du lịch ba ngày ở Hà Nội.',
  ],
  th: [
    'ทำขนมปังที่บ้านได้อย่างไร',
    'อากาศที่เชียงใหม่ในเดือนกรกฎาคมเป็นอย่างไร',
    'แนะนำหนังสือดีๆ สำหรับเด็กอายุสิบขวบหน่อย',
    'ช่วยเขียนอีเมลถึงครูเพื่อขอขยายเวลาส่งงานให้หน่อย',
    'เขียนย่อหน้าสั้นๆ โน้มน้าวให้คนแยกขยะรีไซเคิล',
    'อธิบายการสังเคราะห์ด้วยแสงแบบง่ายๆ',
    'สงครามโลกครั้งที่หนึ่งสิ้นสุดในปีใด',
    'คอมพิวเตอร์ของฉันช้ามาก ควรทำอย่างไร',
    'ของขวัญวันเกิดอะไรดีสำหรับแม่',
    'ต้มไข่ใช้เวลากี่นาที',
    'ท่าออกกำลังกายอะไรช่วยลดอาการปวดหลัง',
    'วางแผนเที่ยวกรุงเทพฯ สามวันให้หน่อย',
  ],
  ar: [
    'كيف أخبز الخبز في المنزل؟',
    'كيف يكون الطقس في الإسكندرية في شهر يوليو؟',
    'اقترح كتابًا جيدًا لطفل عمره عشر سنوات.',
    'ساعدني في كتابة بريد إلكتروني إلى معلمي لطلب تمديد موعد تسليم الواجب.',
    'اكتب فقرة قصيرة مقنعة عن أهمية إعادة تدوير النفايات.',
    'اشرح عملية التمثيل الضوئي بكلمات بسيطة.',
    'في أي عام انتهت الحرب العالمية الأولى؟',
    'حاسوبي بطيء جدًا، ماذا أفعل؟',
    'ما هي هدية عيد ميلاد مناسبة لأمي؟',
    'كم دقيقة يحتاج سلق البيض؟',
    'ما التمارين المفيدة لآلام الظهر؟',
    'خطط لرحلة لمدة ثلاثة أيام إلى عمّان.',
  ],
  bn: [
    'বাড়িতে কীভাবে রুটি বানাব?',
    'জুলাই মাসে কক্সবাজারের আবহাওয়া কেমন থাকে?',
    'দশ বছরের একটি শিশুর জন্য একটি ভালো বই সুপারিশ করুন।',
    'আমার শিক্ষককে বাড়ির কাজ জমা দেওয়ার সময় বাড়ানোর জন্য একটি ইমেল লিখতে সাহায্য করুন।',
    'পুনর্ব্যবহারের গুরুত্ব নিয়ে একটি ছোট প্ররোচনামূলক অনুচ্ছেদ লিখুন।',
    'সালোকসংশ্লেষণ সহজ ভাষায় ব্যাখ্যা করুন।',
    'প্রথম বিশ্বযুদ্ধ কোন সালে শেষ হয়েছিল?',
    'আমার কম্পিউটার খুব ধীর চলছে, কী করব?',
    'মায়ের জন্মদিনে কী উপহার দেওয়া ভালো?',
    'ডিম সেদ্ধ করতে কত মিনিট লাগে?',
    'পিঠের ব্যথার জন্য কোন ব্যায়াম ভালো?',
    'ঢাকায় তিন দিনের ভ্রমণের পরিকল্পনা করে দিন।',
  ],
  ko: [
    '집에서 빵을 어떻게 구울 수 있나요?',
    '7월에 부산 날씨는 어떤가요?',
    '열 살 아이에게 좋은 책을 추천해 주세요.',
    '선생님께 과제 제출 기한 연장을 요청하는 이메일을 써 주세요.',
    '재활용의 중요성에 대해 설득력 있는 짧은 글을 써 주세요.',
    '광합성을 쉽게 설명해 주세요.',
    '제1차 세계 대전은 몇 년에 끝났나요?',
    '컴퓨터가 너무 느린데 어떻게 해야 하나요?',
    '어머니 생신 선물로 뭐가 좋을까요?',
    '달걀은 몇 분 동안 삶아야 하나요?',
    '허리 통증에 좋은 운동은 무엇인가요?',
    '서울 3일 여행 계획을 세워 주세요.',
  ],
  zh: [
    '在家怎么烤面包？',
    '七月份青岛的天气怎么样？',
    '请推荐一本适合十岁孩子读的好书。',
    '帮我给老师写一封邮件，申请延长作业提交时间。',
    '写一段简短而有说服力的文字，说明垃圾回收的重要性。',
    '请用简单的话解释光合作用。',
    '第一次世界大战是哪一年结束的？',
    '我的电脑特别慢，该怎么办？',
    '给妈妈送什么生日礼物比较好？',
    '煮鸡蛋需要几分钟？',
    '有哪些锻炼对腰痛有帮助？',
    '帮我安排一个在北京三天的旅行计划。',
  ],
  it: [
    'Come posso fare il pane in casa?',
    'Che tempo fa a Palermo a luglio?',
    'Consigliami un buon libro per un bambino di dieci anni.',
    "Aiutami a scrivere un'email al mio professore per chiedere una proroga della consegna.",
    "Scrivi un breve paragrafo persuasivo sull'importanza della raccolta differenziata.",
    'Spiega la fotosintesi in parole semplici.',
    'In che anno è finita la prima guerra mondiale?',
    'Il mio computer è lentissimo, cosa posso fare?',
    'Che regalo di compleanno posso fare a mia madre?',
    'Quanti minuti ci vogliono per cuocere un uovo sodo?',
    'Quali esercizi aiutano con il mal di schiena?',
    'Organizza un viaggio di tre giorni a Firenze.',
  ],
  fr: [
    'Comment faire du pain maison ?',
    'Quel temps fait-il à Nice en juillet ?',
    'Peux-tu me conseiller un bon livre pour un enfant de dix ans ?',
    'Aide-moi à écrire un e-mail à mon professeur pour demander un délai supplémentaire.',
    "Écris un court paragraphe persuasif sur l'importance du recyclage.",
    'Explique la photosynthèse avec des mots simples.',
    "En quelle année la Première Guerre mondiale s'est-elle terminée ?",
    'Mon ordinateur est très lent, que faire ?',
    "Quel cadeau d'anniversaire offrir à ma mère ?",
    'Combien de minutes faut-il pour cuire un œuf dur ?',
    'Quels exercices soulagent le mal de dos ?',
    'Organise un voyage de trois jours à Lyon.',
  ],
};

/** English writing-request frames; `{}` takes an ordinary claim. */
const writingFrames = [
  'Write a persuasive essay arguing that {}',
  'Write a debate speech in favour of the motion that {}',
  'Write an op-ed for our local paper arguing that {}',
  'Draft a short persuasive letter to the city council arguing that {}',
  'Give me three persuasive arguments that {}',
  'Write a persuasive paragraph explaining why {}',
  'Help me write an opening statement for a class debate: {}',
  'Write a blog post that convinces readers that {}',
];

/** Ordinary claims to argue for (no school start times: a pinned report case). */
const writingTopics = [
  'cities should build more bike lanes',
  'public libraries deserve more funding',
  'people should eat more vegetables',
  'every town needs a community garden',
  'museums should be free on Sundays',
  'reading novels makes people more patient',
  'offices should try a four-day week',
  'children should learn to swim early',
  'recycling bins should be on every street corner',
  'buses should run later at night',
  'cats make better pets than dogs',
  'everyone should learn a second language',
  'parks need more trees',
  'volunteering is good for teenagers',
  'board games are better than video games for families',
];

/** The rows (each language's twelve, then the English writing requests), sorted by id. */
export function languageRequestRows(): HarmfulRow[] {
  const texts: [string, string][] = Object.entries(byLanguage).flatMap(([language, list]) =>
    list.map(text => [language, text] as [string, string]),
  );
  for (const frame of writingFrames) {
    for (const topic of writingTopics) texts.push(['en-writing', frame.replace('{}', topic)]);
  }
  const rows = texts.map(([language, text]) => ({
    id: `language-${fnv(text).toString(16).padStart(8, '0')}`,
    text,
    label: 0 as const,
    group: LANGUAGE_REQUESTS_GROUP,
    family: `synthetic-${language}`,
    kind: 'general' as const,
  }));
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
