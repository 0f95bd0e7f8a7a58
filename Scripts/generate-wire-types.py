#!/usr/bin/env python3
"""Generates the wire types of Cognate's two APIs from botocore's service models: CognateProtocol's
from `cognito-idp` (user pools) and CognateIdentityProtocol's from `cognito-identity` (identity
pools), the second reusing the first's public wire infrastructure (WireShape, WireValidator …).

The model is the single definition of the wire: member names, required members, length and
value ranges, patterns and enums all come from it, so the server and the SDK cannot drift from
what boto3, the AWS CLI and Amplify send. Run after upgrading botocore (pinned in
compat/requirements.txt):

    python3 Scripts/generate-wire-types.py           # rewrite the generated files
    python3 Scripts/generate-wire-types.py --check   # exit 1 when they differ from its output

Output: Sources/CognateProtocol/Generated/*.swift and Sources/CognateIdentityProtocol/Generated/*.swift
(committed; do not edit by hand). Each module has its own names (`CognitoAPI` and
`CognitoIdentityAPI`, `CognitoErrorCode` and `CognitoIdentityErrorCode`); shapes keep the
model's names, so the few both models define (`TagResourceResponse` …) are told apart by module.
"""
import gzip
import json
import os
import re
import sys

import botocore

DATA = os.path.join(os.path.dirname(botocore.__file__), "data")
SOURCES = os.path.join(os.path.dirname(__file__), "..", "Sources")


class API:
    """One service model and the module its types go to."""

    def __init__(self, service, version, module, operations_enum, error_enum, title, imports):
        self.service = service
        self.version = version
        self.model_path = os.path.join(DATA, service, version, "service-2.json.gz")
        self.module = module
        self.out = os.path.join(SOURCES, module, "Generated")
        self.operations_enum = operations_enum
        self.error_enum = error_enum
        self.title = title
        self.imports = imports


APIS = [
    API("cognito-idp", "2016-04-18", "CognateProtocol", "CognitoAPI", "CognitoErrorCode",
        "the Cognito User Pools API", ["Foundation"]),
    API("cognito-identity", "2014-06-30", "CognateIdentityProtocol", "CognitoIdentityAPI", "CognitoIdentityErrorCode",
        "the Cognito Identity (identity pools) API", ["CognateProtocol", "Foundation"]),
]

SWIFT_KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
    "return", "switch", "where", "while", "as", "catch", "false", "is", "nil", "super", "self",
    "Self", "throw", "throws", "true", "try", "Type", "Protocol", "any", "some",
}


def load_model(api):
    with gzip.open(api.model_path) as f:
        return json.load(f)


def lower_camel(name):
    """PascalCase (with leading acronyms) -> lowerCamel: SMSMfaSettings -> smsMfaSettings."""
    if not name:
        return name
    if "_" in name or "-" in name:
        parts = [p for p in re.split(r"[_\-]", name) if p]
        head = parts[0].lower()
        return head + "".join(p[:1].upper() + p[1:].lower() for p in parts[1:])
    i = 0
    while i < len(name) and name[i].isupper():
        i += 1
    if i == 0:
        return name
    if i == 1 or i == len(name):
        return name[:i].lower() + name[i:]
    # Leading acronym followed by a word: keep the word's capital ("SMSMfa" -> "smsMfa").
    return name[: i - 1].lower() + name[i - 1:]


def enum_case_name(value):
    parts = [p for p in re.split(r"[^A-Za-z0-9]+", value) if p]
    if not parts:
        return "empty"
    words = []
    for p in parts:
        if p.isupper() or p.islower():
            words.append(p.lower())
        else:
            words.append(p[:1].lower() + p[1:])
    name = words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])
    if name[0].isdigit():
        name = "v" + name
    return name


def escape_identifier(name):
    return f"`{name}`" if name in SWIFT_KEYWORDS else name


def swift_string_literal(value):
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def java_pattern_to_icu(pattern):
    """Java's \\w is ASCII-only; ICU's is Unicode. Translate so both accept the same strings."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt == "w":
                out.append("A-Za-z0-9_" if in_class else "[A-Za-z0-9_]")
            else:
                out.append(c + nxt)
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


class Generator:
    def __init__(self, model, api):
        self.model = model
        self.api = api
        self.shapes = model["shapes"]
        self.patterns = {}

    def pattern_id(self, pattern):
        if pattern not in self.patterns:
            self.patterns[pattern] = f"p{len(self.patterns)}"
        return self.patterns[pattern]

    def is_exception(self, name):
        return self.shapes[name].get("exception", False)

    def is_enum(self, name):
        s = self.shapes[name]
        return s["type"] == "string" and "enum" in s

    def swift_type(self, name):
        s = self.shapes[name]
        t = s["type"]
        if t == "string":
            return name if "enum" in s else "String"
        if t in ("integer", "long"):
            return "Int"
        if t == "boolean":
            return "Bool"
        if t == "timestamp":
            return "Date"
        if t == "blob":
            return "Data"
        if t == "list":
            return f"[{self.swift_type(s['member']['shape'])}]"
        if t == "map":
            return f"[{self.swift_type(s['key']['shape'])}: {self.swift_type(s['value']['shape'])}]"
        if t == "structure":
            return "JSONValue" if s.get("document") else name
        raise ValueError(f"unknown type {t} for {name}")

    def placeholder(self, name):
        s = self.shapes[name]
        t = s["type"]
        if t == "string":
            return f'{name}(rawValue: "")' if "enum" in s else '""'
        if t in ("integer", "long"):
            return "0"
        if t == "boolean":
            return "false"
        if t == "timestamp":
            return "Date(timeIntervalSince1970: 0)"
        if t == "blob":
            return "Data()"
        if t == "list":
            return "[]"
        if t == "map":
            return "[:]"
        if s.get("document"):
            return ".null"
        return f"{name}.wirePlaceholder"

    def decode_if_present(self, stype, shape_name, prop):
        """The expression decoding member `prop`: an `integer` shape is 32 bits on the wire
        (Smithy's Integer), so a number outside Int32 is refused like any value of a wrong type."""
        if self.shapes[shape_name]["type"] == "integer":
            return f"container.decodeIfPresent(Int32.self, forKey: .{prop}).map(Int.init)"
        return f"container.decodeIfPresent({stype}.self, forKey: .{prop})"

    # Constraint checks -------------------------------------------------------------------

    def checks_for(self, shape_name, value_expr, path_expr, depth=0):
        """Swift statements validating `value_expr` (non-optional) of shape `shape_name`."""
        s = self.shapes[shape_name]
        t = s["type"]
        lines = []
        sensitive = "true" if s.get("sensitive") else "false"
        if t == "string":
            if "enum" in s:
                lines.append(f"validator.checkEnum({value_expr}, at: {path_expr})")
            else:
                args = []
                if "min" in s:
                    args.append(f"min: {s['min']}")
                if "max" in s:
                    args.append(f"max: {s['max']}")
                if "pattern" in s:
                    args.append(f"pattern: WirePatterns.{self.pattern_id(s['pattern'])}")
                if args:
                    lines.append(f"validator.checkString({value_expr}, at: {path_expr}, "
                                 f"{', '.join(args)}, sensitive: {sensitive})")
        elif t in ("integer", "long"):
            args = []
            if "min" in s:
                args.append(f"min: {s['min']}")
            if "max" in s:
                args.append(f"max: {s['max']}")
            if args:
                lines.append(f"validator.checkNumber({value_expr}, at: {path_expr}, {', '.join(args)})")
        elif t == "blob":
            if "max" in s:
                lines.append(f"validator.checkCount({value_expr}.count, of: {value_expr}, at: {path_expr}, "
                             f"min: {s.get('min', 0)}, max: {s['max']})")
        elif t in ("list", "map"):
            if "min" in s or "max" in s:
                args = []
                if "min" in s:
                    args.append(f"min: {s['min']}")
                if "max" in s:
                    args.append(f"max: {s['max']}")
                lines.append(f"validator.checkCount({value_expr}.count, of: {value_expr}, at: {path_expr}, "
                             f"{', '.join(args)})")
            if t == "list":
                element_path = f"{path_expr} + \".\\(n{depth} + 1).member\""
                inner = self.checks_for(s["member"]["shape"], f"e{depth}", element_path, depth + 1)
                if inner:
                    lines.append(f"for (n{depth}, e{depth}) in {value_expr}.enumerated() {{")
                    lines += ["    " + l for l in inner]
                    lines.append("}")
            else:
                entry_path = f"{path_expr} + \".\" + k{depth}"
                kchecks = self.checks_for(s["key"]["shape"], f"k{depth}", entry_path, depth + 1)
                vchecks = self.checks_for(s["value"]["shape"], f"v{depth}", entry_path, depth + 1)
                if kchecks or vchecks:
                    entries = f"(k{depth}, v{depth}) in {value_expr}" if vchecks else f"k{depth} in {value_expr}.keys"
                    lines.append(f"for {entries} {{")
                    lines += ["    " + l for l in kchecks + vchecks]
                    lines.append("}")
        # Nested structures validate themselves while decoding.
        return lines

    # Writers -------------------------------------------------------------------------------

    def write_value(self, shape_name, value_expr, depth=0):
        """(Swift statement writing `value_expr` of shape `shape_name` into `output`, whether it throws)."""
        s = self.shapes[shape_name]
        t = s["type"]
        if t == "string":
            return f"output.writeString({value_expr}.rawValue)" if "enum" in s else f"output.writeString({value_expr})", False
        if t in ("integer", "long"):
            return f"output.writeInteger({value_expr})", False
        if t == "boolean":
            return f"output.writeBool({value_expr})", False
        if t == "timestamp":
            return f"try output.writeDate({value_expr})", True
        if t == "blob":
            return f"output.writeData({value_expr})", False
        if t in ("list", "map"):
            inner_shape = s["member"]["shape"] if t == "list" else s["value"]["shape"]
            if t == "map" and self.swift_type(s["key"]["shape"]) != "String":
                raise ValueError(f"map {shape_name}: keys other than strings are not written")
            inner, throws = self.write_value(inner_shape, f"e{depth}", depth + 1)
            call = "writeArray" if t == "list" else "writeMap"
            return f"{'try ' if throws else ''}output.{call}({value_expr}) {{ e{depth} in {inner} }}", throws
        if t == "structure":
            if s.get("document"):
                return f"try output.writeEncodable({value_expr})", True
            return f"try {value_expr}.writeJSON(to: output)", True
        raise ValueError(f"unknown type {t} for {shape_name}")

    def emit_writer(self, props):
        """`writeJSON(to:)`: the members in declaration order, nil ones left out, as the
        synthesized `encode(to:)` writes them."""
        out = ["    public func writeJSON(to output: JSONOutput) throws {"]
        if not props:
            out += ["        output.beginObject()", "        output.endObject()", "    }"]
            return out
        out += ["        var first = true", "        output.beginObject()"]
        for mname, p, _, opt, sh in props:
            key = f'#""{mname}":"#'
            if opt:
                statement, _ = self.write_value(sh, "value")
                out.append(f"        if let value = {p} {{")
                out.append(f"            output.member({key}, first: &first)")
                out.append(f"            {statement}")
                out.append("        }")
            else:
                statement, _ = self.write_value(sh, p)
                out.append(f"        output.member({key}, first: &first)")
                out.append(f"        {statement}")
        out += ["        output.endObject()", "    }"]
        return out

    # Emitters ------------------------------------------------------------------------------

    def emit_enum(self, name):
        s = self.shapes[name]
        cases, used = [], set()
        for v in s["enum"]:
            case = enum_case_name(v)
            while case in used:
                case += "_"
            used.add(case)
            cases.append((case, v))
        out = [f"public struct {name}: WireEnum {{",
               "    public let rawValue: String",
               "    public init(rawValue: String) { self.rawValue = rawValue }"]
        for case, v in cases:
            out.append(f"    public static let {escape_identifier(case)} = {name}(rawValue: {swift_string_literal(v)})")
        out.append("    public static let allValues: [" + name + "] = [" + ", ".join(
            f".{escape_identifier(c)}" for c, _ in cases) + "]")
        out.append("}")
        return "\n".join(out)

    def emit_struct(self, name):
        s = self.shapes[name]
        required = set(s.get("required", []))
        members = list(s["members"].items())
        readable = ", WireReadable" if self.api.module == "CognateProtocol" else ""
        out = [f"public struct {name}: WireShape{readable} {{"]
        props = []
        for mname, m in members:
            prop = escape_identifier(lower_camel(mname))
            stype = self.swift_type(m["shape"])
            opt = "" if mname in required else "?"
            props.append((mname, prop, stype, opt, m["shape"]))
            out.append(f"    public var {prop}: {stype}{opt}")
        # memberwise init
        if props:
            params = ", ".join(f"{p.strip('`')}: {t}{o}" + (" = nil" if o else "") for _, p, t, o, _ in props)
            out.append("")
            out.append(f"    public init({params}) {{")
            for _, p, _, _, _ in props:
                out.append(f"        self.{p} = {p}")
            out.append("    }")
        else:
            out.append("")
            out.append("    public init() {}")
        # placeholder used when a required member of this type is missing
        ph_args = ", ".join(f"{p.strip('`')}: {self.placeholder(sh)}" for mname, p, _, o, sh in props if not o)
        out.append("")
        out.append(f"    public static var wirePlaceholder: {name} {{ {name}({ph_args}) }}")
        # coding keys
        if props:
            out.append("")
            out.append("    enum CodingKeys: String, CodingKey {")
            for mname, p, _, _, _ in props:
                out.append(f"        case {p} = {swift_string_literal(mname)}")
            out.append("    }")
        out += self.emit_readers(props)
        out.append("")
        out += self.emit_writer(props)
        out.append("}")
        return "\n".join(out)

    def emit_readers(self, props):
        """`init(from:)` and (user-pool shapes, which the server reads) `init(wire:)` on the
        server decoder's own container, both through one generic initializer: every member in
        declaration order, each checked as it is read; a missing required member is recorded
        (or thrown, without a report)."""
        doors = [("public init(from decoder: any Decoder) throws", "container")]
        if self.api.module == "CognateProtocol":
            doors.append(("init(wire decoder: WireValueDecoder) throws", "wireContainer"))
        out = []
        if not props:
            for signature, container_function in doors:
                out += ["", f"    {signature} {{",
                        f"        _ = try decoder.{container_function}(keyedBy: WireNoKeys.self)", "    }"]
            return out
        body = []
        for mname, p, stype, opt, sh in props:
            # Each check words the path only when it fails (an autoclosure).
            path = f'validator.path({swift_string_literal(lower_camel(mname))})'
            if opt:
                body.append(f"        self.{p} = try {self.decode_if_present(stype, sh, p)}")
                checks = self.checks_for(sh, "value", path)
                if checks:
                    body.append(f"        if let value = self.{p} {{")
                    body += ["            " + l for l in checks]
                    body.append("        }")
            else:
                body.append(f"        if let value = try {self.decode_if_present(stype, sh, p)} {{")
                checks = self.checks_for(sh, "value", path)
                if checks:
                    body += ["            " + l for l in checks]
                body.append(f"            self.{p} = value")
                body.append("        } else {")
                body.append(f"            try validator.missing(.{p}, in: container, path: {path})")
                body.append(f"            self.{p} = {self.placeholder(sh)}")
                body.append("        }")
        validates = any("validator." in line for line in body)
        validator_argument = ", validator: WireValidator(decoder)" if validates else ""
        for signature, container_function in doors:
            out += ["", f"    {signature} {{",
                    f"        try self.init(container: decoder.{container_function}(keyedBy: CodingKeys.self){validator_argument})",
                    "    }"]
        validator_parameter = ", validator: WireValidator" if validates else ""
        out += ["",
                f"    private init<Container: KeyedDecodingContainerProtocol>(container: Container{validator_parameter}) throws",
                "        where Container.Key == CodingKeys",
                "    {"]
        out += body
        out.append("    }")
        return out

    def emit_operations(self, ops):
        prefix = self.model["metadata"]["targetPrefix"] + "."
        out = [f"/// Every operation of {self.api.title}, as the model defines it.",
               f"public enum {self.api.operations_enum} {{"]
        for name in sorted(ops):
            op = ops[name]
            inp = op["input"]["shape"]
            outp = op.get("output", {}).get("shape", "EmptyResponse")
            public = op.get("authtype") == "none"
            out.append(f"    public enum {name}: CognitoOperation {{")
            out.append(f"        public typealias Input = {inp}")
            out.append(f"        public typealias Output = {outp}")
            out.append(f"        public static let name = {swift_string_literal(name)}")
            if prefix != "AWSCognitoIdentityProviderService.":
                out.append(f"        public static let targetPrefix = {swift_string_literal(prefix)}")
            out.append(f"        public static let authorization: OperationAuthorization = "
                       f"{'.unsigned' if public else '.sigV4'}")
            out.append("    }")
        out.append("}")
        out.append("")
        out.append(f"extension {self.api.operations_enum} {{")
        out.append("    /// The error shapes each operation may return, from the model.")
        out.append(f"    public static let declaredErrors: [String: [{self.api.error_enum}]] = [")
        for name in sorted(ops):
            errs = [e["shape"] for e in ops[name].get("errors", [])]
            out.append(f"        {swift_string_literal(name)}: [" + ", ".join(
                f".{lower_camel(e[:-len('Exception')] if e.endswith('Exception') else e)}" for e in errs) + "],")
        out.append("    ]")
        out.append("")
        out.append("    /// Every structure of the model (the writers' tests go through all of them).")
        out.append("    public static let shapeTypes: [any WireShape.Type] = [")
        for name in sorted(n for n, sh in self.shapes.items()
                           if sh["type"] == "structure" and not sh.get("exception") and not sh.get("document")):
            out.append(f"        {name}.self,")
        out.append("    ]")
        out.append("}")
        return "\n".join(out)

    def emit_errors(self):
        names = sorted(n for n in self.shapes if self.is_exception(n))
        out = [f"/// Every error shape of {self.api.title}. `rawValue` is the `__type` on the wire.",
               f"public enum {self.api.error_enum}: String, Sendable, CaseIterable, Codable {{"]
        for n in names:
            case = lower_camel(n[:-len("Exception")] if n.endswith("Exception") else n)
            out.append(f"    case {escape_identifier(case)} = {swift_string_literal(n)}")
        out.append("")
        out.append("    /// Server faults (5xx); every other error is the client's (400).")
        out.append("    public var isServerFault: Bool {")
        faults = [n for n in names if self.shapes[n].get("fault")]
        out.append("        switch self {")
        out.append("        case " + ", ".join("." + lower_camel(n[:-len('Exception')]) for n in faults)
                   + ": return true")
        out.append("        default: return false")
        out.append("        }")
        out.append("    }")
        out.append("}")
        return "\n".join(out)

    def emit_patterns(self):
        out = ["/// Compiled member patterns of the model (Java semantics: full match, ASCII \\\\w).",
               "enum WirePatterns {"]
        for pattern, pid in sorted(self.patterns.items(), key=lambda kv: int(kv[1][1:])):
            out.append(f"    static let {pid} = WirePattern({swift_string_literal(pattern)}, "
                       f"icu: {swift_string_literal(java_pattern_to_icu(pattern))})")
        out.append("}")
        return "\n".join(out)


HEADER = """// Generated by Scripts/generate-wire-types.py from botocore's {service} {model_version} model
// (botocore {version}). Do not edit by hand: change the generator and run it again.
{imports}
"""


def generate(api):
    """The generated files of one API, by name, with a summary line."""
    model = load_model(api)
    gen = Generator(model, api)
    ops = model["operations"]
    shapes = gen.shapes
    structs = sorted(n for n, s in shapes.items()
                     if s["type"] == "structure" and not s.get("exception") and not s.get("document"))
    enums = sorted(n for n in shapes if gen.is_enum(n))
    header = HEADER.format(service=api.service, model_version=api.version, version=botocore.__version__,
                           imports="\n".join(f"import {m}" for m in api.imports))

    # Structures in groups so no single file is enormous.
    groups = {}
    for n in structs:
        key = "A-F" if n[0] <= "F" else "G-R" if n[0] <= "R" else "S-Z"
        groups.setdefault(key, []).append(n)
    files = {f"Shapes{k}.swift": "\n\n".join(gen.emit_struct(n) for n in v) for k, v in groups.items()}
    files["Enums.swift"] = "\n\n".join(gen.emit_enum(n) for n in enums)
    files["Operations.swift"] = gen.emit_operations(ops)
    files["Errors.swift"] = gen.emit_errors()
    files["Patterns.swift"] = gen.emit_patterns()  # last: collects patterns used above
    expected = {fname: header + "\n" + body + "\n" for fname, body in files.items()}
    summary = (f"{len(structs)} structures, {len(enums)} enums, {len(ops)} operations, "
               f"{len(gen.patterns)} patterns -> {os.path.relpath(api.out)}")
    return expected, summary


def main():
    check = "--check" in sys.argv[1:]
    failed = False
    for api in APIS:
        expected, summary = generate(api)
        if check:
            present = {f for f in os.listdir(api.out) if f.endswith(".swift")} if os.path.isdir(api.out) else set()
            stale = sorted(f for f in expected
                           if f not in present or open(os.path.join(api.out, f)).read() != expected[f])
            extra = sorted(present - set(expected))
            if stale or extra:
                print(f"{os.path.relpath(api.out)} differs from the generator's output "
                      f"(changed: {', '.join(stale) or 'none'}; not generated: {', '.join(extra) or 'none'}): "
                      "run python3 Scripts/generate-wire-types.py", file=sys.stderr)
                failed = True
            continue
        os.makedirs(api.out, exist_ok=True)
        for old in os.listdir(api.out):
            if old.endswith(".swift") and old not in expected:
                os.remove(os.path.join(api.out, old))
        for fname, text in expected.items():
            with open(os.path.join(api.out, fname), "w") as f:
                f.write(text)
        print(summary, file=sys.stderr)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
