/// `Schemas/case-record.schema.json`, generated from the keys `CaseLineWriter` writes and the
/// readers read (`CaseRecord.CodingKeys`, `CaseReview.CodingKeys`): a switch over each set
/// of keys gives every key its schema, so a key added to the record does not compile until
/// it has one; enumerations come from their Swift types. `conformance schema case-record`
/// prints it; CI fails when the committed file differs.
extension CaseRecord {
  package static var schema: JSONValue {
    .object([
      ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
      ("title", .string("One case of a run: a line of cases.jsonl.gz")),
      ("description", .string(
        "CaseRecord (Sources/Conformance/Records/CaseRecord.swift), generated from its keys by "
          + "`conformance schema case-record`. The check's verdict and values, and apart from them the "
          + "review. A case is abridged (values, detail and explain dropped, actualDigest kept) when it is "
          + "a waived case past its cluster's first eight.")),
      ("type", .string("object")),
      ("required", strings([CodingKeys.id, .check, .step, .verdict])),
      ("properties", .object(CodingKeys.allCases.map { ($0.stringValue, property($0)) })),
      ("additionalProperties", .bool(false)),
      ("allOf", .array([
        // Abridged: a digest and none of the values; whole: the values.
        condition(if: required([.actualDigest]),
                  then: .object([("not", anyRequired([.dimensions, .expected, .actual, .values, .months, .detail, .explain]))]),
                  else: required([.dimensions, .expected, .actual])),
        // Passed: no pattern or explain command; else a pattern.
        condition(if: passed, then: .object([("not", anyRequired([.pattern, .explain]))]), else: required([.pattern])),
        // Whole and not passed: its detail and explain command.
        condition(if: .object([("not", .object([("anyOf", .array([required([.actualDigest]), passed]))]))]),
                  then: required([.detail, .explain]), else: nil),
      ])),
    ])
  }

  private static func property(_ key: CodingKeys) -> JSONValue {
    switch key {
    case .id:
      .object([("type", .string("string")),
                ("pattern", .string("^[a-z-]+(\\|(\(CaseID.keys.joined(separator: "|")))=[^|]+)*$"))])
    case .check, .pattern: .object([("type", .string("string"))])
    case .step: .object([("type", .string("integer")), ("minimum", .int(0))])
    case .dimensions:
      .object([("type", .string("object")),
               ("propertyNames", .object([("enum", .array(CaseID.keys.map(JSONValue.string)))])),
               ("additionalProperties", .object([("type", .string("string"))]))])
    case .verdict: enumeration(Outcome.Verdict.allCases.map(\.rawValue))
    case .expected:
      value("libicu's answer; for checks of many comparisons, only those that differ (or a count when none does)")
    case .actual: value("the subject's answer, as expected")
    case .values:
      .object([
        ("description", .string("With --record all: everything each side answered (cells as ISO 8601 local time "
          + "with offset, pairs with both instants and each side's verdict, roles, counts, the first weekday and "
          + "symbols), and the published reference's value where it decided the case's triage")),
        ("type", .string("object")), ("required", strings([CaseValues.CodingKeys.oracle, .subject])),
        ("properties", .object(CaseValues.CodingKeys.allCases.map { key in
          (key.stringValue, key == .reference ? referenceValue : .object([("$ref", .string("value.schema.json"))]))
        })),
        ("additionalProperties", .bool(false)),
      ])
    case .months: sides(.object([("type", .string("string"))]), [MonthReadings.CodingKeys.oracle, .subject], description: nil)
    case .detail: .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])
    case .explain:
      .object([
        ("description", .string("The command that re-runs this case as the run did: its injected fault "
          + "(CONFORMANCE_FAULT=…) first, then the binary that ran by its absolute path (so it runs where it is "
          + "pasted; swift run conformance when none was given), its subject, waivers when not the default, and "
          + "corpora; a team's own functions through the worker that served them (swift run <worker> explain), "
          + "or a '# ' line saying why no command reaches them (swept in a test's process) and what to do.")),
        ("type", .string("string")),
        ("pattern", .string("^((CONFORMANCE_FAULT=('[^']*'|[^ ']+) )?(swift run [A-Za-z0-9_.-]+|/[^ ']+|'/[^']*') "
          + "explain '|# )")),
      ])
    case .actualDigest:
      .object([("type", .string("string")), ("pattern", .string("^[0-9a-f]{16}$")),
               ("description", .string("64-bit FNV-1a of the actual value's text"))])
    case .review:
      .object([("type", .string("object")),
               ("properties", .object(CaseReview.CodingKeys.allCases.map { ($0.stringValue, reviewProperty($0)) })),
               ("additionalProperties", .bool(false))])
    }
  }

  private static func reviewProperty(_ key: CaseReview.CodingKeys) -> JSONValue {
    switch key {
    case .waiver: .object([("type", .string("string"))])
    case .triage: enumeration(Triage.allCases.map(\.rawValue))
    case .triageExpected: .object([("$ref", .string("value.schema.json"))])
    case .baseline: enumeration(Baseline.Class.allCases.map(\.rawValue))
    case .contradicts:
      .object([("type", .string("string")), ("description", .string(
        "a waiver that matched the case by check, dimensions and pattern but whose claimed triage the "
          + "case's contradicts (it did not waive the case)"))])
    case .oracleStale:
      .object([("const", .bool(true)), ("description", .string(
        "counted apart as oracle-stale, not failed: the reference shows the subject following the release it "
          + "declares and libicu its own older one (--oracle-stale apart)"))])
    case .outOfScope:
      .object([("type", .string("string")), ("description", .string(
        "a waiver that would have waived the case, but the case newly fails against the baseline and the "
          + "waiver's scope does not list it (it did not waive the case: a new failure)"))])
    }
  }

  private static func strings(_ keys: [some CodingKey]) -> JSONValue { .array(keys.map { .string($0.stringValue) }) }
  private static func enumeration(_ values: [String]) -> JSONValue { .object([("enum", .array(values.map(JSONValue.string)))]) }
  private static func required(_ keys: [CodingKeys]) -> JSONValue { .object([("required", strings(keys))]) }
  private static func anyRequired(_ keys: [CodingKeys]) -> JSONValue { .object([("anyOf", .array(keys.map { required([$0]) }))]) }
  private static var passed: JSONValue {
    .object([("properties", .object([(CodingKeys.verdict.stringValue, .object([("const", .string(Outcome.Verdict.passed.rawValue))]))]))])
  }

  private static func value(_ description: String) -> JSONValue {
    .object([("$ref", .string("value.schema.json")), ("description", .string(description))])
  }

  private static func sides<Key: CodingKey>(_ side: JSONValue, _ keys: [Key], description: String?) -> JSONValue {
    .object((description.map { [("description", JSONValue.string($0))] } ?? []) + [
      ("type", .string("object")), ("required", strings(keys)),
      ("properties", .object(keys.map { ($0.stringValue, side) })), ("additionalProperties", .bool(false)),
    ])
  }

  /// `values.reference`: a release's name and its value.
  private static var referenceValue: JSONValue {
    .object([
      ("description", .string("the published reference's value at the release the subject declares (a month table's "
        + "one release), where it decided the case's triage")),
      ("type", .string("object")), ("required", strings(ReferenceValue.CodingKeys.allCases)),
      ("properties", .object([
        (ReferenceValue.CodingKeys.release.stringValue, .object([("type", .string("string")), ("minLength", .int(1))])),
        (ReferenceValue.CodingKeys.value.stringValue, .object([("$ref", .string("value.schema.json"))])),
      ])),
      ("additionalProperties", .bool(false)),
    ])
  }

  private static func condition(if test: JSONValue, then: JSONValue, else otherwise: JSONValue?) -> JSONValue {
    .object([("if", test), ("then", then)] + (otherwise.map { [("else", $0)] } ?? []))
  }
}
