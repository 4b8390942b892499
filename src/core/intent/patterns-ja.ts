import { LOAN_VERBS, type LanguagePatterns } from "./language-patterns.ts";

/** Verbal nouns that ask for a change when followed by して, お願い, したい... */
const SURU_NOUNS = [
  "実装し直し",
  "実装",
  "追加",
  "修正",
  "変更",
  "削除",
  "更新",
  "作成",
  "移行",
  "対応",
  "改善",
  "最適化",
  "高速化",
  "軽量化",
  "効率化",
  "共通化",
  "抽象化",
  "モジュール化",
  "関数化",
  "無効化",
  "有効化",
  "ドキュメント化",
  "整理",
  "置換",
  "分割",
  "分離",
  "統合",
  "統一",
  "適用",
  "導入",
  "設定",
  "記述",
  "追記",
  "記載",
  "反映",
  "編集",
  "除去",
  "削減",
  "翻訳",
  "変換",
  "移動",
  "移植",
  "改修",
  "改良",
  "拡張",
  "生成",
  "修復",
  "解消",
  "対処",
  "再実装",
  "書き直し",
  "作り直し",
  "名前変更",
  "差し替え",
  "置き換え",
  "書き換え",
  "切り出し",
  "切り替え",
  "型付け",
  "整形",
  "リファクタリング",
  "リファクタ",
  "リネーム",
  "アップデート",
  "アップグレード",
  "バージョンアップ",
  "マイグレーション",
  "マイグレート",
  "インストール",
  "アンインストール",
  "デバッグ",
  "フォーマット",
  "コメントアウト",
  "クリーンアップ",
  ...LOAN_VERBS,
].join("|");

/** Nouns that end an instruction on their own: 「…に追加。」 */
const STOP_NOUNS = "追加|実装|修正|削除|変更|更新|対応|作成|移行|リファクタ";

/** Te-form stems of native verbs that ask for a change (直して, 消しといて, 組み込んで). */
const TE_STEMS =
  "直し|消し|潰し|つぶし|なくし|無くし|書い|作っ|変え|上げ|入れ|(?<!気を?)付け|つけ|足し|加え|切り出し|切り替え|書き換え|置き換え|入れ替え|差し替え|分け|移し|戻し|書き直し|作り直し|揃え|埋め|増やし|減らし|外し|取り除い|組み込ん|繋げ|つなげ|防い|止め|削っ|(?<!どう)やっ";
const DESIRE_STEMS =
  "入れ|直し|消し|なくし|無くし|書き|作り|変え|上げ|付け|足し|加え|分け|移し|戻し|揃え|増やし|減らし|外し|切り替え|置き換え|書き換え|繋げ|つなげ|防ぎ|止め";
const VOLITIONAL =
  "直そう|消そう|書こう|作ろう|変えよう|入れよう|分けよう|足そう|加えよう|付けよう|上げよう|やろう";

/** What may follow て for it to be a request: not している (state), してから, してもいい (permission). */
const TE_TAIL =
  "(?=ください|下さい|くれ(?!た)|くだ|もらえ|もらい|ほしい|欲しい|いただ(?!い)|頂(?!い)|おいて|おく|ね|よ|みて|ちょうだい|\\s*[。、，,.．！!？?\\n]|\\s*$)";
const SENTENCE_END = "(?=\\s*[。．.！!]*\\s*(?:\\n|$))";
const DESIRE_END = `(?=(?:んです|のです|です|と思(?:う|います|ってます|っています))?${SENTENCE_END})`;

const WORK_G = new RegExp(
  [
    `(?:${SURU_NOUNS})\\s*(?:を|も)?\\s*(?:(?:して|しといて|しちゃって)${TE_TAIL}|しよう(?![かと])|しましょう(?!か)|しろ|しなさい|せよ|したい${DESIRE_END}|(?:お願い|おねがい|頼む|頼みます|たのむ|よろしく))`,
    `(?:${STOP_NOUNS})(?=\\s*[。！!]|\\s*\\n|\\s*$)`,
    `(?:${TE_STEMS})(?:といて|どいて|ちゃって|じゃって|て|で)${TE_TAIL}`,
    `(?:${DESIRE_STEMS})たい${DESIRE_END}`,
    `(?:${VOLITIONAL})(?![かと])`,
    `ように(?:(?:して|しといて|しちゃって)${TE_TAIL}|お願い|頼む)`,
    `(?:^|[、。\\s])(?:そうして|それで(?:お願い|進めて))`,
    `(?<!一覧|リスト|表|箇条書き|要約|参考|気|大事|大切)(?:に|く)(?:して|しといて|しておいて)${TE_TAIL}`,
  ].join("|"),
  // No `i`: case-folding tables make V8 compile this 5-10 times slower; the prose is lowercased instead.
  "g",
);
/** Someone else's request: 直してほしいって言われた, 追加してと頼まれた. */
const REPORTED =
  /^[^。！!？?\n]{0,12}?(?:って|と)(?:言|いわ|頼|たの|書|お願いされ)/;

const QUESTION =
  /[?？]|ですか|ますか|でしょうか|かな|なの|なぜ|何故|どう|何|なに|どこ|いつ|誰|どれ|どの|どんな|教えて|説明|見せて|まとめて|一覧|確認|レビュー|理由|意味|違い/;

/** Japanese: a request is a change verb in a request form (して, してください, お願い, したい, しよう...). */
export const jaPatterns: LanguagePatterns = {
  findWork(prose) {
    const lower = prose.toLowerCase();
    for (const match of lower.matchAll(WORK_G)) {
      if (!REPORTED.test(lower.slice(match.index + match[0].length)))
        return match[0];
    }
    return null;
  },
  findQuestion(prose) {
    return QUESTION.exec(prose)?.[0] ?? null;
  },
};
