"""``jpd rules [NAME]``: the presets of spec/rulesets.yaml. {#rules.presets}"""

from jpdref.rules import AXES

from jpdtools import table
from jpdtools.presets import load_presets


def add_arguments(parser) -> None:
    parser.add_argument("name", nargs="?", help="a preset, optionally with overrides: NAME:axis=value,…")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    presets = load_presets()
    if args.name is None:
        if args.json:
            import json  # the imports of a command that prints a table are its start-up time

            data = [{"name": r.name, "title": r.title, **r.values()} for r in presets.rulesets]
            print(json.dumps(data, ensure_ascii=False, indent=2))
            return 0
        rows = [[r.name, *r.values().values()] for r in presets.rulesets]
        print(table.render(["ruleset", *AXES], rows, table.terminal_width(args.wide)))
        print("\n'jpd rules NAME' shows one ruleset with the source of every value.")
        return 0
    rules = presets.get(args.name)
    if args.json:
        import json

        data = {
            "name": rules.name,
            "title": rules.title,
            "axes": {a: {"value": v, "source": rules.source(a)} for a, v in rules.values().items()},
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(f"{rules.name} — {rules.title}" if rules.title else rules.name)
    rows = [[a, v, rules.source(a)] for a, v in rules.values().items()]
    print(table.render(["axis", "value", "source"], rows, table.terminal_width(args.wide)))
    return 0
