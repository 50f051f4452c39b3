# ruff: noqa: E501 -- each topic kept whole, one line each
"""The topics of the suite's case files (each file's ``topic:``, a chapter of the printed book) in
Chinese, as the project renders them. Keyed by the English text with its white space collapsed
(:func:`topic_key`): a topic changed in its case file no longer finds its rendering, and the book
shows the English, marked, until this table follows (a test lists the topics without one)."""

TOPICS_ZH = {
    "board and turn basics — occupied points, turn order, the end of play, vertices": "棋盘与轮次的基础——已有子的点、轮流下子、对局的终止、交叉点",
    "The play-phase cases on 19x19: small cases in the lower-left corner (jpdtools.suite.enlarge)": "19×19 棋盘上的行棋阶段案例：小案例移到左下角（jpdtools.suite.enlarge）",
    "captures — removing chains without liberties, and the order of removal": "提子——提取无气的棋块，以及提子的先后",
    "counting — 子空合计 area counting in stones against 归本数, Tromp-Taylor, Ing fill counting, AGA": "计数——子空合计的数子法与归本数、Tromp-Taylor、应氏填子计点、AGA 的对照",
    "counting — the art versions' equal-stones judgment (jpd-art-2008, jpd-art-2), seki, claims and dame": "计数——艺术版的等子判定（jpd-art-2008、jpd-art-2）、双活、主张与单官",
    "counting — 等子比空 (jpd-2022) and the compatibility theorems' counterexample classes": "计数——等子比空（jpd-2022）与兼容性定理的反例类别",
    "counting — komi rules (贴目) — 3¾ stones, 6.5, 黑收后贴1点, the A and B versions, WMSG 2008, handicap compensation": "计数——贴目规则：3¾ 子、6.5、黑收后贴1点、A 版与 B 版、WMSG 2008、让子的补偿",
    "counting — 等子比路 (jhz-2022): basic eye points, roads, living stones": "计数——等子比路（jhz-2022）：基本眼位、路点、活子",
    "counting — 惟目是地 territory counting, the 计枰点 equal-stones methods, fill-back, negative moves, and counting errors": "计数——惟目是地的数目法、计枰点的等子方法、填回、负着与计数错误",
    "counting — the compatibility theorems' counterexample classes, 等空比子 and counting a game as is": "计数——兼容性定理的反例类别、等空比子，以及按棋局原样计数",
    "counting paths no preset reaches and counting figures no other case pins — rulesets named with axis overrides in `rules` (NAME:axis=value), ties, komi decided by the play, fill-back and balancing details": "没有预设规则集走到的计数路径与别的案例没有固定的计数数字——在 `rules` 中以轴的覆盖命名的规则集（NAME:axis=value）、和棋、由对局决定的贴目、填回与平衡的细节",
    "counting — examples of the counting syntax (agreement, counters, count and point verdicts)": "计数——计数语法的示例（协商、计数器、计数与各点的判定）",
    "cycles — triple and quadruple ko, eternal life (长生), 送二还一, two kos with a pass; draw, no result or superko": "循环——三劫、四劫、长生、送二还一、两个劫加一次放弃；和棋、无胜负或禁同形",
    "ending the play phase — two passes, AGA's White-last rule, resignation, and nothing after the end": "行棋阶段的终止——两次放弃、AGA 的白方最后着子规则、认输，以及终止之后不再有着手",
    "format errors — the loader must reject these quoted files at the stated place": "格式错误——加载器必须在所写明的位置拒绝这些引用的文件",
    "19x19 positions drawn on the full board (corners, edges, centre) for the play-phase clauses: each action, a ko under every illegal-move policy, 隔虚可以提劫, 四虚终局, a multi-stone suicide, the capture order at tengen, a board with the empty board's hash (board19.yaml holds the small cases moved into the corner)": "行棋阶段各条款在整个 19×19 棋盘上（角、边、中央）画出的局面：每一种行动、各种非法着手处理之下的劫、隔虚可以提劫、四虚终局、块子自尽、天元处提子的先后、与空棋盘哈希相同的盘面（移到角上的小案例在 board19.yaml 中）",
    "handicaps and set-up — fixed and free placement, SGF set-up, history": "让子与开局摆放——固定与自由摆放、SGF 摆放、此前的着手",
    "illegal-move policies — refuse, void-pass (着手无效，弃权一次) and loss (反則負け)": "非法着手的处理——拒绝、无效着（着手无效，弃权一次）与判负（反則負け）",
    "ko — the single-stone ko, its immediate recapture, threats, passes, and shapes that are not kos": "劫——单子劫、立即回提、劫材、放弃，以及不是劫的棋形",
    "passes — who may pass, what a pass changes, and when passes halt play": "放弃——谁可以放弃、放弃改变什么、放弃何时使行棋停止",
    "settling a dispute by play (实战解决) under each ruleset's procedure": "按各规则集的程序以实战解决争议（实战解决）",
    "suicide — self-capture (颗子自尽, 块子自尽) under every preset": "自尽——各预设规则集之下的自提（颗子自尽、块子自尽）",
    "superko — positional, global-positional, situational and no-retreat repetitions beyond the simple ko": "禁同形——单劫之外的盘面、全局棋形、局面与禁倒退的重复",
    "virtual moves (虚着) in ko fights — 隔虚可以提劫, virtual ko threats, no-retreat bans, 四虚终局": "劫争中的虚着——隔虚可以提劫、以虚着为劫材、禁倒退的禁止、四虚终局",
    "virtual moves 虚着 — where they are allowed, how they meet the repetition rules, 四虚终局": "虚着——何处允许、与重复规则的关系、四虚终局",
}


def topic_key(topic: str) -> str:
    """A case file's topic as this table keys it: white space collapsed (a folded YAML text ends
    with a newline)."""
    return " ".join(topic.split())
