import { LOAN_VERBS, type LanguagePatterns } from "./language-patterns.ts";

/** Verbal nouns that ask for a change when followed by 해줘, 하자, 부탁... */
const HA_NOUNS = [
  "구현",
  "추가",
  "수정",
  "삭제",
  "제거",
  "변경",
  "리팩토링",
  "리팩터링",
  "리팩토",
  "리팩터",
  "업데이트",
  "업그레이드",
  "마이그레이션",
  "마이그레이트",
  "작성",
  "생성",
  "적용",
  "(?<!요약\\s?)정리",
  "개선",
  "최적화",
  "경량화",
  "고도화",
  "문서화",
  "모듈화",
  "교체",
  "치환",
  "분리",
  "통합",
  "통일",
  "처리",
  "설정",
  "도입",
  "번역",
  "반영",
  "편집",
  "재작성",
  "해결",
  "보완",
  "변환",
  "추출",
  "이동",
  "병합",
  "진행",
  "설치",
  "연동",
  "연결",
  "포팅",
  "방지",
  "차단",
  "제한",
  "보강",
  "확장",
  "재구성",
  "구성",
  "롤백",
  "대응",
  "지원",
  "작업",
  "패치",
  "픽스",
  "이름\\s?변경",
  ...LOAN_VERBS,
].join("|");

/** Nouns that end an instruction on their own: 「…에 페이지네이션 추가.」 */
const STOP_NOUNS = "추가|구현|수정|삭제|변경|업데이트|리팩토링|리팩터링|적용";

/** 아/어 forms of native verbs that ask for a change (고쳐, 바꿔, 지워...). */
const NATIVE =
  "고쳐|바꿔|바꾸어|지워|만들어|넣어|빼|없애|올려|달아|써|옮겨|나눠|합쳐|붙여|채워|늘려|줄여|되돌려|손봐|다듬어|짜|적어|잡아|막아|맞춰|이어|살려|연결해";
/** Native forms that are an order even without 줘 (반말: 「버튼 색 파란색으로 바꿔」). */
const NATIVE_BARE = "고쳐|바꿔|지워|만들어|넣어|없애|올려|옮겨|나눠|합쳐";
const NATIVE_STEMS =
  "고치|바꾸|지우|만들|넣|빼|없애|올리|나누|합치|옮기|막|맞추|잇|살리";

/** What follows 해 / 고쳐 in a request, unless it is reported speech (…해줘라고 했는데). */
const REQUEST =
  "\\s*(?:줘요|줘|주세요|주세여|주셈|주삼|주라|주십시오|주실래요|주시겠어요|주시겠습니까|주실\\s*수|줄래요|줄래|줄\\s*수|주시면|주셨으면|줬으면|놔요|놔|놓아|놓으세요|둬|두세요|봐요|봐|보세요|주면\\s*(?:좋겠|고맙|감사))(?!\\s*(?:라고|라는|라며|란|래서|랬|라구|달라|서))";
const SENTENCE_END = "(?=\\s*[.。!~]*\\s*(?:\\n|$))";

const WORK = new RegExp(
  [
    `(?:${HA_NOUNS})\\s*(?:을|를)?\\s*(?:좀\\s*)?(?:(?:해|하여)${REQUEST}|하자|합시다|하세요|하십시오|해요${SENTENCE_END}|해${SENTENCE_END}|하고\\s*싶(?:어요|어|습니다|다|음)${SENTENCE_END}|부탁|(?:ㄱㄱ|고고|ㄱ)(?![가-힣ㄱ-ㅎ]))`,
    `(?:${STOP_NOUNS})(?=\\s*[.。!]|\\s*\\n|\\s*$)`,
    `(?:${NATIVE})(?:\\s*놔)?${REQUEST}`,
    `(?:${NATIVE_BARE})${SENTENCE_END}`,
    `(?:${NATIVE_STEMS})자(?![가-힣])`,
    `(?:${NATIVE_STEMS})고\\s*싶(?:어요|어|습니다|다|음)${SENTENCE_END}`,
    `(?:게|도록)\\s*(?:좀\\s*)?(?:해|만들어)${REQUEST}`,
    `(?:에도|잘|그렇게|그대로|똑같이)\\s*(?:똑같이\\s*|같이\\s*)?해${REQUEST}`,
  ].join("|"),
  // No `i`: case-folding tables make V8 compile this 5-10 times slower; the prose is lowercased instead.
);

const QUESTION =
  /[?？]|뭐|왜|어떻게|어디|언제|누가|누구|무슨|어떤|얼마나|알려|설명|보여|요약|차이|이유|의미|뜻|나요|는지|[까냐니](?:요)?(?=[\s.!]|$)/;

/** Korean: a request is a change verb in a request form (해줘, 해 주세요, 하자, 부탁, 고쳐줘...). */
export const koPatterns: LanguagePatterns = {
  findWork(prose) {
    return WORK.exec(prose.toLowerCase())?.[0] ?? null;
  },
  findQuestion(prose) {
    return QUESTION.exec(prose)?.[0] ?? null;
  },
};
