"""The seed-traceability table ``spec/sources.yaml``: every article of every source, and the
rule that says which articles a citation names. {#sources}

The table lists, for each seed (``000`` … ``004``) and each public source the comparison
rulesets cite (``J1989``, ``AGA``, ``Tromp-Taylor``, ``Chinese rules``, ``Ing rules``,
``WMSG 2008``), every article once: its id (the citation string cases and spec use) and its
sentences — a seed article whole, in order — each with the clause anchors resting on it,
``non-normative`` with a one-line reason, or neither (not yet used). A sentence is cited as the
article's id, ``/`` and its position (``001 第十条/13``); an article of one sentence by its id.
Public sources are not stored in this repository, so their ``quote`` is a short statement of the
rule in this project's words.

**Resolving a citation** (:meth:`SourceTable.resolve`; spec/case-format.md#format.citations).
Citations in ``seeds:`` lists and ``Sources:`` lines may be finer or coarser than the table.
Before matching, both sides are *normalised*: full-width brackets become ``(``/``)``, runs of
blanks one blank, dashes between numbers ``–``, and the traditional characters of
:data:`TRADITIONAL` become simplified (003 is written in traditional characters; a citation may
use either script). A citation is then:

1. a **source key** — the longest key of the table it starts with (``000``, ``Tromp-Taylor``,
   ``Chinese rules``); no key, no resolution;
2. followed by a **list of items** separated by ``,``, ``;`` or `` and `` (outside brackets).
   A trailing bracketed remark of an item is dropped (``§22 (陈祖源's wording)``); an item that is
   wholly bracketed is a list of *names* (``003 (禁全同, 全局棋形; 不可以立即回提)``, also split
   on ``/``). ``Arts.``/``Rules``/``rules`` read as ``Art.``/``Rule``/``rule``. An item that is
   only a number or range takes the label of the item before it (``Arts. 9, 12, 14``). A range
   ``§13–14``, ``Art. 8–10``, ``第十二条–第十三条``, ``做棋(4)–(6)`` stands for each number in it.

Each item, written with the key in front (``000 §13``), names:

- the article with exactly that id (**exact**); else
- the longest article id it *starts with*, the next character being no letter, digit or ``.``
  (**finer**: ``000 §29(2)`` → ``000 §29``, ``001 第二条说明`` → ``001 第二条说明`` or, if the
  table had no such entry, ``001 第二条``; ``J1989 Art. 9-1`` → ``J1989 Art. 9``); else
- every article whose id starts with it at such a boundary (**coarser**: ``004 Chinese summary``
  → all of ``004 Chinese summary 1`` …); else
- every article of the source whose quotation contains the item's words (**quoted**, at least two
  characters: ``003 不可以立即回提``); else nothing (the citation does not resolve).

A citation that is only a key (``Ing rules``, ``003``) names the whole source. Case-insensitive
throughout. A citation resolves when every item names at least one article.
"""

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from jpdtools.errors import InputError, Location, read_text_file
from jpdtools.review.anchors import ANCHOR_RE
from jpdtools.yamlsrc import LocDict, LocList, load_yaml_text, location_of

SOURCES_FILE = "sources.yaml"
FORMAT = 2
FILE_KEYS = ("format", "sources")
SOURCE_KEYS = ("key", "title", "file", "articles")
ARTICLE_KEYS = ("id", "quote", "sentences", "clauses", "non-normative", "zh", "wording")
SENTENCE_KEYS = ("n", "quote", "clauses", "non-normative", "zh", "wording")

# traditional characters (as in the 003 seed) → simplified, for comparing citations, ids and quotations
TRADITIONAL = str.maketrans(
    "虛終與棄盤內連續雙計權義務實著無塊獨圖說貼勝負數條單為氣將戰決確認歸屬點應變處擁據對劃現後會時進過樣"
    "術藝範圍論證問題從規則總顯結構態標準兩當舉聲長團維節錄機區別參驗環輪紀劉達蘭屆敗鶴擊聯聖傑殺軍輸贏擬"
    "離剛個們來這還見種麼頭錯讓產邏輯觀齊號閱書專壞隊圓繫遺檢撥樹盃棲齒議讀間係陽網邊價値開東門關馬鄰緊線"
    "眾狀齣萬億於並虧損補歷餘層廣勢頁寫記帶韋黨極稱謂陸習慣練裏裡異卻愛強軟體學嗎麗爾舊紅級經濟週轉讚贊採"
    "擇選戲劇歡樂質聞閉導須簡優雜創農華壓監臺場廠憑敵擋鬥兒帥亂盡燈紙縱橫豎綫鑑況龍飛蓋視聽識護費資貨賽購"
    "輕較載遠適運違遞遲遷鄉銷錢鐵閒陣隨險雲靜願顧類風飯館髮鬆魚鳥鹽麥黃齡",
    "虚终与弃盘内连续双计权义务实着无块独图说贴胜负数条单为气将战决确认归属点应变处拥据对划现后会时进过样"
    "术艺范围论证问题从规则总显结构态标准两当举声长团维节录机区别参验环轮纪刘达兰届败鹤击联圣杰杀军输赢拟"
    "离刚个们来这还见种么头错让产逻辑观齐号阅书专坏队圆系遗检拨树杯栖齿议读间系阳网边价值开东门关马邻紧线"
    "众状出万亿于并亏损补历余层广势页写记带韦党极称谓陆习惯练里里异却爱强软体学吗丽尔旧红级经济周转赞赞采"
    "择选戏剧欢乐质闻闭导须简优杂创农华压监台场厂凭敌挡斗儿帅乱尽灯纸纵横竖线鉴况龙飞盖视听识护费资货赛购"
    "轻较载远适运违递迟迁乡销钱铁闲阵随险云静愿顾类风饭馆发松鱼鸟盐麦黄龄",
)
_BRACKETS = str.maketrans({"（": "(", "）": ")", "【": "[", "】": "]", "　": " "})
_DASHES = re.compile(r"(?<=[\d)条])\s*[–—-]\s*(?=[\d(第§])")
_BLANKS = re.compile(r"\s+")
_LABEL_ALIASES = (
    (re.compile(r"^Arts\.\s*(?=\d)"), "Art. "),
    (re.compile(r"^(R|r)ules\s+(?=\d)"), r"\1ule "),
)
_NUMBER_ITEM = re.compile(r"\d+(–\d+)?\Z")
_RANGE = re.compile(r"(.*?)(\d+)–(\d+)\Z")
_PAREN_RANGE = re.compile(r"(.*?)\((\d+)\)–\((\d+)\)\Z")
_CN_RANGE = re.compile(r"(.*?)第([一二三四五六七八九十]+)条–第([一二三四五六七八九十]+)条\Z")
_CN_DIGITS = "一二三四五六七八九"


# -- values ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sentence:
    """One sentence of an article, cited as the article's id, ``/`` and its position
    (``001 第十条/13``); the only sentence of a one-sentence article has the label ``""`` and is
    cited by the article's id. (``/`` keeps it apart from a seed's own item numbers, which prose
    cites as ``001 第十条(3)``.)"""

    label: str  # the position, "1", "2", …; "" for the only sentence of an article
    quote: str  # seeds: verbatim; public sources: the rule in this project's words
    clauses: tuple[str, ...] = ()  # the clauses resting on this sentence
    location: Location | None = field(default=None, compare=False)
    non_normative: str = ""  # why it implements nothing ("heading", "history", …)
    # a public source's rule only (the seeds are quoted as written, never rendered):
    zh: str = ""  # the rule rendered in Chinese in this project's words (shown as the project's)
    wording: str = ""  # the id of the seed sentence that records the source's own words (004)

    @property
    def status(self) -> str:
        """``normative`` (it has clauses), ``non-normative`` (a reason) or ``unused`` (neither)."""
        return "normative" if self.clauses else "non-normative" if self.non_normative else "unused"


@dataclass(frozen=True)
class Article:
    """One article (numbered paragraph, titled section, named fragment) of a source."""

    id: str  # the citation string: "000 §22", "001 第二条说明", "J1989 Art. 6"
    source: str  # the source's key: "000", "J1989"
    quote: str  # its first normative sentence, else its first (seeds: verbatim)
    clauses: tuple[str, ...] = ()  # spec anchors implementing it: every sentence's, in order
    non_normative: str = ""  # when every sentence is marked: the first one's reason
    location: Location | None = field(default=None, compare=False)
    sentences: tuple[Sentence, ...] = ()  # every ruling sentence, in the article's order

    def sentence(self, label: str) -> Sentence | None:
        """The sentence at ``label``: ``/3`` (as a citation writes it after the id) or ``3``."""
        wanted = _fold(label).strip().removeprefix("/").strip()
        return next((s for s in self.sentences if s.label and _fold(s.label) == wanted), None)

    def sentence_id(self, sentence: Sentence) -> str:
        return f"{self.id}/{sentence.label}" if sentence.label else self.id

    @property
    def mapped(self) -> bool:
        return bool(self.clauses)

    @property
    def marked(self) -> bool:
        """Every sentence is marked non-normative."""
        return all(s.non_normative and not s.clauses for s in self.sentences)


@dataclass(frozen=True)
class Source:
    key: str  # "000" … "004", or a public source's key as cited ("J1989", "Tromp-Taylor")
    title: str
    file: str  # seeds: the file under ../shared ("seeds/000_….txt"); public: a URL or citation
    articles: tuple[Article, ...]
    location: Location | None = field(default=None, compare=False)

    @property
    def is_seed(self) -> bool:
        return self.file.startswith("seeds/")


@dataclass(frozen=True)
class Resolution:
    """What a citation names: article ids (in table order), and how each item matched."""

    citation: str
    articles: tuple[str, ...] = ()
    how: tuple[str, ...] = ()  # per item: exact | finer | coarser | quoted | source | (unresolved)
    problem: str = ""  # why it does not resolve ("" when it does)

    @property
    def ok(self) -> bool:
        return not self.problem


@dataclass(frozen=True)
class SourceTable:
    path: str
    sources: tuple[Source, ...]

    def articles(self) -> tuple[Article, ...]:
        return tuple(a for s in self.sources for a in s.articles)

    def article(self, article_id: str) -> Article | None:
        return next((a for a in self.articles() if a.id == article_id), None)

    def source(self, key: str) -> Source | None:
        return next((s for s in self.sources if s.key == key), None)

    def articles_for_clause(self, anchor: str) -> tuple[Article, ...]:
        """The articles the table maps to clause ``anchor``."""
        return tuple(a for a in self.articles() if anchor in a.clauses)

    def resolve(self, citation: str) -> Resolution:
        """The articles ``citation`` names (see the module docstring for the rule)."""
        return _resolve(self, citation)


# -- loading -----------------------------------------------------------------------------------


def load_sources(path: Path) -> SourceTable:
    """The table in ``path``; any problem is an InputError naming file, line and column."""
    return load_sources_text(read_text_file(path, "sources table"), str(path))


def load_sources_text(text: str, path: str) -> SourceTable:
    data = load_yaml_text(text, path)
    if not isinstance(data, LocDict):
        raise InputError(
            "the sources table is a mapping with 'format: 1' and 'sources'", Location(path, 1, 1)
        )
    _keys(data, FILE_KEYS, "the sources table", path)
    if data.get("format") != FORMAT or type(data.get("format")) is not int:
        raise InputError(f"expected 'format: {FORMAT}'", _at(data, "format", path))
    items = data.get("sources")
    if not isinstance(items, LocList) or not items:
        raise InputError("'sources' must be a non-empty list", _at(data, "sources", path))
    sources: list[Source] = []
    seen_keys: dict[str, Location] = {}
    seen_ids: dict[str, Location] = {}
    for item in items:
        source = _source(item, path, seen_ids)
        if source.key in seen_keys:
            raise InputError(
                f"source key {source.key!r} listed twice (first at {seen_keys[source.key]})", source.location
            )
        seen_keys[source.key] = source.location or Location(path)
        sources.append(source)
    return SourceTable(path, tuple(sources))


def _at(mapping: LocDict, key: str, path: str) -> Location:
    """Where the value of ``key`` is, else the key, else the mapping."""
    value = mapping.get(key)
    if getattr(value, "line", 0):
        return location_of(value, path)
    return mapping.key_location(key, path)


def _keys(mapping: LocDict, allowed: tuple[str, ...], what: str, path: str) -> None:
    for key in mapping:
        if key not in allowed:
            where = mapping.key_location(key, path) if isinstance(key, str) else location_of(mapping, path)
            raise InputError(f"unknown key {key!r} in {what} (expected: {', '.join(allowed)})", where)


def _text(mapping: LocDict, key: str, what: str, path: str) -> str:
    if key not in mapping:
        raise InputError(f"{what} needs {key!r}", location_of(mapping, path))
    value = mapping[key]
    if not isinstance(value, str) or not value.strip() or "\n" in value.strip():
        raise InputError(f"{key!r} of {what} must be a one-line, non-empty string", _at(mapping, key, path))
    return value.strip()


def _source(item, path: str, seen_ids: dict[str, Location]) -> Source:
    if not isinstance(item, LocDict):
        raise InputError("a source is a mapping: key, title, file, articles", location_of(item, path))
    _keys(item, SOURCE_KEYS, "a source", path)
    key = _text(item, "key", "a source", path)
    title = _text(item, "title", f"source {key!r}", path)
    file = _text(item, "file", f"source {key!r}", path)
    articles = item.get("articles")
    if not isinstance(articles, LocList) or not articles:
        raise InputError(
            f"'articles' of source {key!r} must be a non-empty list", _at(item, "articles", path)
        )
    loaded = []
    for entry in articles:
        article = _article(entry, key, path)
        if article.id in seen_ids:
            raise InputError(
                f"article {article.id!r} listed twice (first at {seen_ids[article.id]})", article.location
            )
        seen_ids[article.id] = article.location or Location(path)
        loaded.append(article)
    return Source(key, title, file, tuple(loaded), location_of(item, path))


def _article(entry, key: str, path: str) -> Article:
    if not isinstance(entry, LocDict):
        raise InputError(
            "an article is a mapping: id, quote, clauses or non-normative", location_of(entry, path)
        )
    _keys(entry, ARTICLE_KEYS, "an article", path)
    article_id = _text(entry, "id", "an article", path)
    where = _at(entry, "id", path)
    if _source_key(article_id, (key,)) != key:
        raise InputError(f"article id {article_id!r} does not start with its source's key {key!r}", where)
    if ("quote" in entry) == ("sentences" in entry):
        raise InputError(f"article {article_id!r} needs 'quote' or 'sentences' (one of them)", where)
    if "quote" in entry:
        quote = _text(entry, "quote", f"article {article_id!r}", path)
        clauses = _clauses(entry, article_id, path)
        reason = _reason(entry, article_id, path)
        zh, wording = _rendering(entry, article_id, key, path)
        sentences: tuple[Sentence, ...] = (
            Sentence("", quote, clauses, _at(entry, "quote", path), reason, zh, wording),
        )
    else:
        for misplaced in ("clauses", "non-normative", "zh", "wording"):
            if misplaced in entry:
                raise InputError(
                    f"article {article_id!r} lists sentences: put {misplaced!r} on each sentence",
                    entry.key_location(misplaced, path),
                )
        sentences = _sentences(entry, article_id, key, path)
    clauses = tuple(dict.fromkeys(c for s in sentences for c in s.clauses))
    quote = next((s.quote for s in sentences if s.clauses), sentences[0].quote)
    marked = all(s.non_normative and not s.clauses for s in sentences)
    return Article(
        article_id, key, quote, clauses, sentences[0].non_normative if marked else "", where, sentences
    )


def _rendering(entry: LocDict, what: str, key: str, path: str) -> tuple[str, str]:
    """``zh`` and ``wording`` of a public source's rule; a seed is quoted as written and has neither."""
    given = [k for k in ("zh", "wording") if k in entry]
    if given and key.isdigit():
        raise InputError(
            f"{what!r} is a seed's, quoted as written: {given[0]!r} is for a public source's rule",
            entry.key_location(given[0], path),
        )
    return tuple(_text(entry, k, f"{what!r}", path) if k in entry else "" for k in ("zh", "wording"))  # type: ignore[return-value]


def _reason(entry: LocDict, what: str, path: str) -> str:
    return _text(entry, "non-normative", f"{what!r}", path) if "non-normative" in entry else ""


def _clauses(entry: LocDict, what: str, path: str) -> tuple[str, ...]:
    if "clauses" not in entry:
        return ()
    value = entry["clauses"]
    if not isinstance(value, LocList) or not all(isinstance(c, str) and c.strip() for c in value):
        raise InputError(
            f"'clauses' of {what!r} must be a list of clause anchors", _at(entry, "clauses", path)
        )
    return tuple(str(c).strip() for c in value)


def _sentences(entry: LocDict, article_id: str, key: str, path: str) -> tuple[Sentence, ...]:
    """``sentences: [{n, quote, clauses | non-normative}, …]``: two or more, ``n`` counting 1, 2, …"""
    items = entry["sentences"]
    if not isinstance(items, LocList) or len(items) < 2:
        raise InputError(
            f"'sentences' of {article_id!r} lists two or more sentences (one sentence: use 'quote')",
            _at(entry, "sentences", path),
        )
    out: list[Sentence] = []
    for position, item in enumerate(items, 1):
        if not isinstance(item, LocDict):
            raise InputError(
                "a sentence is a mapping: n, quote, clauses or non-normative", location_of(item, path)
            )
        _keys(item, SENTENCE_KEYS, f"a sentence of {article_id!r}", path)
        label = item.get("n")
        if type(label) is not int or label != position:
            raise InputError(
                f"sentence {position} of {article_id!r} needs 'n: {position}' (its position in the article)",
                _at(item, "n", path),
            )
        what = f"{article_id}/{label}"
        quote = _text(item, "quote", f"sentence {what}", path)
        clauses = _clauses(item, what, path)
        reason = _reason(item, what, path)
        if clauses and reason:
            raise InputError(
                f"sentence {what!r} has clauses and is marked non-normative", _at(item, "n", path)
            )
        zh, wording = _rendering(item, what, key, path)
        out.append(Sentence(str(label), quote, clauses, _at(item, "quote", path), reason, zh, wording))
    return tuple(out)


# -- normalising and resolving -----------------------------------------------------------------


def normalise(text: str) -> str:
    """The form in which citations, ids and quotations are compared (see the module docstring)."""
    text = text.translate(_BRACKETS).translate(TRADITIONAL)
    text = _DASHES.sub("–", text)
    return _BLANKS.sub(" ", text).strip()


@functools.lru_cache(maxsize=1 << 16)
def _fold(text: str) -> str:
    """``text`` normalised and case-folded: kept, since every citation is matched against the
    folded ids and quotes of all its source's articles."""
    return normalise(text).casefold()


def _source_key(text: str, keys) -> str:
    """The longest key ``text`` starts with (then a blank, a bracket, ``/`` or the end), or ""."""
    folded = _fold(text)
    best = ""
    for key in keys:
        k = _fold(key)
        if folded == k or (folded.startswith(k) and folded[len(k)] in " (/"):
            best = key if len(key) > len(best) else best
    return best


def split_items(text: str, separators: str = ",;") -> list[str]:
    """``text`` split at ``separators`` and `` and `` outside brackets, items stripped."""
    items, depth, current = [], 0, []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        if depth == 0 and (ch in separators or text.startswith(" and ", i)):
            items.append("".join(current))
            current = []
            i += 5 if ch == " " else 1
            continue
        current.append(ch)
        i += 1
    items.append("".join(current))
    return [item.strip() for item in items if item.strip()]


def _strip_remark(item: str) -> tuple[str, bool]:
    """``(item without a trailing bracketed remark, whether the item was wholly bracketed)``."""
    if not item.endswith(")"):
        return item, False
    depth = 0
    for i in range(len(item) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(item[i], 0)
        if depth == 0:
            if i == 0:
                return item[1:-1].strip(), True
            if item[i - 1] == " ":  # a remark; "§29(2)" and "做棋(6)" are part of the item
                return item[:i].strip(), False
            return item, False
    return item, False


def _cn(n: int) -> str:
    if n < 10:
        return _CN_DIGITS[n - 1]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _CN_DIGITS[tens - 1]) + "十" + (_CN_DIGITS[ones - 1] if ones else "")


def _from_cn(text: str) -> int:
    if "十" not in text:
        return _CN_DIGITS.index(text) + 1
    tens, _, ones = text.partition("十")
    return (_CN_DIGITS.index(tens) + 1 if tens else 1) * 10 + (_CN_DIGITS.index(ones) + 1 if ones else 0)


def _expand(item: str) -> list[str]:
    """A range item as one item per number; anything else as itself."""
    for pattern, render in (
        (_CN_RANGE, lambda label, n: f"{label}第{_cn(n)}条"),
        (_PAREN_RANGE, lambda label, n: f"{label}({n})"),
        (_RANGE, lambda label, n: f"{label}{n}"),
    ):
        match = pattern.match(item)
        if not match:
            continue
        label, low, high = match.groups()
        first, last = (_from_cn(low), _from_cn(high)) if pattern is _CN_RANGE else (int(low), int(high))
        if first < last <= first + 50:
            return [render(label, n) for n in range(first, last + 1)]
    return [item]


def _items(rest: str) -> Iterator[tuple[str, bool]]:
    """The items of a citation after its key: ``(item, named)``, ranges expanded, labels shared."""
    label = ""
    for raw in split_items(rest):
        item, named = _strip_remark(raw)
        if named:
            for name in split_items(item, ",;/"):
                yield _strip_remark(name)[0], True
            continue
        for pattern, replacement in _LABEL_ALIASES:
            item = pattern.sub(replacement, item)
        if _NUMBER_ITEM.match(item) and label:
            item = label + item
        found = re.match(r"(.*?)\d", item)
        label = found.group(1) if found and found.group(1) and not found.group(1).endswith("(") else label
        for one in _expand(item):
            yield one, False


def _boundary(text: str, at: int) -> bool:
    return at >= len(text) or not (text[at].isascii() and (text[at].isalnum() or text[at] == "."))


def _match(source: Source, item: str) -> tuple[tuple[str, ...], str]:
    candidate = _fold(f"{source.key} {item}")
    ids = [(a.id, _fold(a.id)) for a in source.articles]
    exact = [i for i, f in ids if f == candidate]
    if exact:
        return tuple(exact), "exact"
    finer = [(len(f), i) for i, f in ids if candidate.startswith(f) and _boundary(candidate, len(f))]
    if finer:
        return (max(finer)[1],), "finer"
    coarser = [i for i, f in ids if f.startswith(candidate) and _boundary(f, len(candidate))]
    if coarser:
        return tuple(coarser), "coarser"
    words = _fold(item)
    if len(words.replace(" ", "")) >= 2:
        quoted = [a.id for a in source.articles if words in _fold(a.quote)]
        if quoted:
            return tuple(quoted), "quoted"
    return (), ""


def _resolve(table: SourceTable, citation: str) -> Resolution:
    key = _source_key(citation, [s.key for s in table.sources])
    if not key:
        return Resolution(citation, problem=f"{citation!r} names no source of {Path(table.path).name}")
    source = table.source(key)
    assert source is not None
    rest = normalise(citation)[len(normalise(key)) :].strip()
    if not rest:
        return Resolution(citation, tuple(a.id for a in source.articles), ("source",))
    found: list[str] = []
    hows: list[str] = []
    for item, _named in _items(rest):
        ids, how = _match(source, item)
        if not ids:
            return Resolution(
                citation,
                tuple(found),
                tuple(hows),
                problem=f"{f'{source.key} {item}'!r} (in {citation!r}) is no article of {source.key} "
                f"in {Path(table.path).name}",
            )
        found.extend(i for i in ids if i not in found)
        hows.append(how)
    order = {a.id: n for n, a in enumerate(source.articles)}
    return Resolution(citation, tuple(sorted(found, key=order.__getitem__)), tuple(hows))


# -- the sentence a citation names ------------------------------------------------------------


@dataclass(frozen=True)
class Pin:
    """One item of a citation and the sentence it names (``sentence`` None: it names none, or
    several — ``problem`` says which)."""

    item: str
    article: Article | None
    sentence: Sentence | None
    problem: str = ""


def pinpoint(table: SourceTable, citation: str) -> tuple[Pin, ...]:
    """The sentence every item of ``citation`` names. An item names one sentence when it names
    one article and either the article has one sentence or the rest of the item after the
    article's id is ``/`` and a sentence's position (``001 第十五条/8``)."""
    resolution = table.resolve(citation)
    if not resolution.ok:
        return (Pin(citation, None, None, resolution.problem),)
    key = _source_key(citation, [s.key for s in table.sources])
    source = table.source(key)
    assert source is not None
    rest = normalise(citation)[len(normalise(key)) :].strip()
    if not rest:
        return (_pin_of(source, citation, [a.id for a in source.articles], ""),)
    pins = []
    for item, _named in _items(rest):
        ids, _how = _match(source, item)
        pins.append(_pin_of(source, f"{source.key} {item}", list(ids), item))
    return tuple(pins)


def _pin_of(source: Source, item: str, ids: list[str], written: str) -> Pin:
    if len(ids) != 1:
        shown = ", ".join(ids[:4]) + (" …" if len(ids) > 4 else "")
        return Pin(item, None, None, f"{item!r} names {len(ids)} articles ({shown}), not one sentence")
    article = next(a for a in source.articles if a.id == ids[0])
    if len(article.sentences) == 1:
        return Pin(item, article, article.sentences[0])
    folded = _fold(f"{source.key} {written}")
    label = folded[len(_fold(article.id)) :].strip() if folded.startswith(_fold(article.id)) else ""
    sentence = article.sentence(label) if label else None
    if sentence is None:
        labels = ", ".join(s.label for s in article.sentences)
        problem = (
            f"{item!r}: {article.id!r} has no sentence {label!r} (its sentences: {labels})"
            if label
            else f"{item!r}: {article.id!r} has several sentences, cite one of them ({labels})"
        )
        return Pin(item, article, None, problem)
    return Pin(item, article, sentence)


# -- the Sources lines of the spec ------------------------------------------------------------

SOURCES_LINE = "Sources:"


@dataclass(frozen=True)
class ClauseSources:
    """The ``Sources:`` paragraph of one clause of ``spec/*.md`` and the citations in it."""

    anchor: str
    text: str  # the paragraph after "Sources:", joined into one line
    citations: tuple[str, ...]  # the groups that start with a key of the table
    location: Location


def clause_sources(spec_dir: Path, table: SourceTable) -> tuple[ClauseSources, ...]:
    """Every ``Sources:`` paragraph of ``spec/*.md``, under the anchor of the heading above it.

    The paragraph is split at ``;`` (outside brackets) into groups; a group that starts with a
    key of the table is a citation (``000 §3–4, §6``), any other group (``OQ-9``, ``SGF FF[4]``,
    prose) is not checked.
    """
    keys = [s.key for s in table.sources]
    found = []
    for path in sorted(spec_dir.glob("*.md")):
        lines = read_text_file(path).splitlines()
        anchor = ""
        for n, line in enumerate(lines):
            match = ANCHOR_RE.search(line) if line.startswith("#") else None
            if match:
                anchor = match.group(1)
            if not line.startswith(SOURCES_LINE) or not anchor:
                continue
            paragraph = [line[len(SOURCES_LINE) :]]
            for more in lines[n + 1 :]:
                if not more.strip() or more.startswith(("#", "|", "```")):
                    break
                paragraph.append(more)
            text = " ".join(p.strip() for p in paragraph).strip()
            groups = split_items(text.rstrip("."), ";")
            citations = tuple(g.rstrip(".") for g in groups if _source_key(g, keys))
            found.append(ClauseSources(anchor, text, citations, Location(str(path), n + 1, 1)))
    return tuple(found)
