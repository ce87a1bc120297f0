#include "floe/format/avro/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace floe::avro {

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kNull:
      return "null";
    case Type::kBoolean:
      return "boolean";
    case Type::kInt:
      return "int";
    case Type::kLong:
      return "long";
    case Type::kFloat:
      return "float";
    case Type::kDouble:
      return "double";
    case Type::kBytes:
      return "bytes";
    case Type::kString:
      return "string";
    case Type::kRecord:
      return "record";
    case Type::kEnum:
      return "enum";
    case Type::kArray:
      return "array";
    case Type::kMap:
      return "map";
    case Type::kUnion:
      return "union";
    case Type::kFixed:
      return "fixed";
  }
  return "unknown";
}

std::string_view LogicalTypeName(LogicalType type) {
  switch (type) {
    case LogicalType::kNone:
      return "";
    case LogicalType::kDecimal:
      return "decimal";
    case LogicalType::kUuid:
      return "uuid";
    case LogicalType::kDate:
      return "date";
    case LogicalType::kTimeMillis:
      return "time-millis";
    case LogicalType::kTimeMicros:
      return "time-micros";
    case LogicalType::kTimestampMillis:
      return "timestamp-millis";
    case LogicalType::kTimestampMicros:
      return "timestamp-micros";
    case LogicalType::kTimestampNanos:
      return "timestamp-nanos";
    case LogicalType::kLocalTimestampMillis:
      return "local-timestamp-millis";
    case LogicalType::kLocalTimestampMicros:
      return "local-timestamp-micros";
    case LogicalType::kLocalTimestampNanos:
      return "local-timestamp-nanos";
    case LogicalType::kDuration:
      return "duration";
  }
  return "";
}

bool IsValidName(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

std::string_view Node::name() const {
  size_t dot = full_name.rfind('.');
  return dot == std::string::npos ? std::string_view(full_name)
                                  : std::string_view(full_name).substr(dot + 1);
}

std::string_view Node::name_space() const {
  size_t dot = full_name.rfind('.');
  return dot == std::string::npos ? std::string_view() : std::string_view(full_name).substr(0, dot);
}

std::optional<int64_t> Node::IntAttribute(std::string_view key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key && v.is_int()) return v.as_int();
  }
  return std::nullopt;
}

const Json* Node::Attribute(std::string_view key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

bool Node::IsKeyValueArray() const {
  if (type != Type::kArray || items->type != Type::kRecord || items->fields.size() != 2) {
    return false;
  }
  const Json* logical = Attribute("logicalType");
  return logical != nullptr && logical->is_string() && logical->as_string() == "map";
}

std::optional<size_t> Node::FieldIndex(std::string_view field_name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field_name) return i;
  }
  return std::nullopt;
}

std::optional<size_t> Node::NullBranch() const {
  if (type != Type::kUnion || branches.size() != 2) return std::nullopt;
  if (branches[0]->type == Type::kNull) return 0;
  if (branches[1]->type == Type::kNull) return 1;
  return std::nullopt;
}

namespace {

std::optional<Type> PrimitiveType(std::string_view name) {
  static constexpr std::pair<std::string_view, Type> kPrimitives[] = {
      {"null", Type::kNull},   {"boolean", Type::kBoolean}, {"int", Type::kInt},
      {"long", Type::kLong},   {"float", Type::kFloat},     {"double", Type::kDouble},
      {"bytes", Type::kBytes}, {"string", Type::kString}};
  for (const auto& [n, t] : kPrimitives) {
    if (n == name) return t;
  }
  return std::nullopt;
}

std::optional<int64_t> AttributeInt(const Json::Object& attributes, std::string_view key) {
  for (const auto& [k, v] : attributes) {
    if (k == key && v.is_int()) return v.as_int();
  }
  return std::nullopt;
}

// Interprets "logicalType" on a node whose structure is complete; leaves kNone when the logical
// type is unknown or does not fit the underlying type.
void ApplyLogicalType(Node& node) {
  const Json* logical = nullptr;
  for (const auto& [k, v] : node.attributes) {
    if (k == "logicalType") logical = &v;
  }
  if (logical == nullptr || !logical->is_string()) return;
  const std::string& name = logical->as_string();
  Type t = node.type;
  if (name == "decimal") {
    if (t != Type::kBytes && t != Type::kFixed) return;
    std::optional<int64_t> precision = AttributeInt(node.attributes, "precision");
    int64_t scale = AttributeInt(node.attributes, "scale").value_or(0);
    if (!precision || *precision <= 0 || scale < 0 || scale > *precision) return;
    if (t == Type::kFixed) {
      // The largest precision a fixed of this size can hold: floor(log10(2^(8n-1) - 1)).
      if (node.fixed_size <= 0) return;
      double digits = (8.0 * static_cast<double>(node.fixed_size) - 1) * 0.30102999566398120;
      if (static_cast<double>(*precision) > digits) return;
    }
    node.logical_type = LogicalType::kDecimal;
    node.precision = static_cast<int32_t>(*precision);
    node.scale = static_cast<int32_t>(scale);
    return;
  }
  struct Rule {
    std::string_view name;
    Type type;
    LogicalType logical;
  };
  static constexpr Rule kRules[] = {
      {"uuid", Type::kString, LogicalType::kUuid},
      {"date", Type::kInt, LogicalType::kDate},
      {"time-millis", Type::kInt, LogicalType::kTimeMillis},
      {"time-micros", Type::kLong, LogicalType::kTimeMicros},
      {"timestamp-millis", Type::kLong, LogicalType::kTimestampMillis},
      {"timestamp-micros", Type::kLong, LogicalType::kTimestampMicros},
      {"timestamp-nanos", Type::kLong, LogicalType::kTimestampNanos},
      {"local-timestamp-millis", Type::kLong, LogicalType::kLocalTimestampMillis},
      {"local-timestamp-micros", Type::kLong, LogicalType::kLocalTimestampMicros},
      {"local-timestamp-nanos", Type::kLong, LogicalType::kLocalTimestampNanos},
  };
  for (const Rule& rule : kRules) {
    if (rule.name == name && rule.type == t) node.logical_type = rule.logical;
  }
  if (name == "uuid" && t == Type::kFixed && node.fixed_size == 16)
    node.logical_type = LogicalType::kUuid;
  if (name == "duration" && t == Type::kFixed && node.fixed_size == 12) {
    node.logical_type = LogicalType::kDuration;
  }
}

}  // namespace

class SchemaParser {
 public:
  explicit SchemaParser(Schema& schema) : schema_(schema) {}

  Result<const Node*> Parse(const Json& json, const std::string& space, const std::string& path) {
    switch (json.kind()) {
      case Json::Kind::kString:
        return Reference(json.as_string(), space, path);
      case Json::Kind::kArray:
        return ParseUnion(json.as_array(), space, path);
      case Json::Kind::kObject:
        return ParseObject(json, space, path);
      default:
        return InvalidArgument("{}: a schema must be a string, object or array, not {}", path,
                               Json::KindName(json.kind()));
    }
  }

 private:
  Node* NewNode(Type type) {
    schema_.nodes_.push_back(std::make_unique<Node>());
    schema_.nodes_.back()->type = type;
    return schema_.nodes_.back().get();
  }

  Result<const Node*> Reference(const std::string& name, const std::string& space,
                                const std::string& path) {
    if (std::optional<Type> primitive = PrimitiveType(name)) return NewNode(*primitive);
    if (name.find('.') == std::string::npos && !space.empty()) {
      if (const Node* node = schema_.FindNamed(space + "." + name)) return node;
    }
    if (const Node* node = schema_.FindNamed(name)) return node;
    return InvalidArgument("{}: unknown type '{}'", path, name);
  }

  static Result<std::string> FullName(const std::string& name, const Json& json,
                                      const std::string& space, const std::string& path) {
    std::string full;
    if (name.find('.') != std::string::npos) {
      full = name;
    } else {
      std::string ns = space;
      if (const Json* explicit_ns = json.Find("namespace")) {
        if (!explicit_ns->is_string() && !explicit_ns->is_null()) {
          return InvalidArgument("{}: namespace must be a string", path);
        }
        ns = explicit_ns->is_string() ? explicit_ns->as_string() : "";
      }
      full = ns.empty() ? name : ns + "." + name;
    }
    size_t start = 0;
    while (true) {
      size_t dot = full.find('.', start);
      std::string_view part = std::string_view(full).substr(
          start, dot == std::string::npos ? std::string::npos : dot - start);
      if (!IsValidName(part)) return InvalidArgument("{}: invalid name '{}'", path, full);
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return full;
  }

  static std::string SpaceOf(const std::string& full) {
    size_t dot = full.rfind('.');
    return dot == std::string::npos ? std::string() : full.substr(0, dot);
  }

  static Result<std::vector<std::string>> Aliases(const Json& json, const std::string& space,
                                                  bool qualify, const std::string& path) {
    std::vector<std::string> out;
    const Json* aliases = json.Find("aliases");
    if (aliases == nullptr) return out;
    if (!aliases->is_array()) return InvalidArgument("{}: aliases must be an array", path);
    for (const Json& alias : aliases->as_array()) {
      if (!alias.is_string()) return InvalidArgument("{}: aliases must be strings", path);
      const std::string& a = alias.as_string();
      out.push_back(qualify && a.find('.') == std::string::npos && !space.empty() ? space + "." + a
                                                                                  : a);
    }
    return out;
  }

  Status Register(Node* node, const std::string& path) {
    if (PrimitiveType(node->full_name)) {
      return InvalidArgument("{}: '{}' redefines a primitive type", path, node->full_name);
    }
    if (!schema_.named_.emplace(node->full_name, node).second) {
      return InvalidArgument("{}: type '{}' is defined twice", path, node->full_name);
    }
    return Ok();
  }

  Result<const Node*> ParseUnion(const Json::Array& array, const std::string& space,
                                 const std::string& path) {
    Node* node = NewNode(Type::kUnion);
    std::set<std::string> seen;
    for (size_t i = 0; i < array.size(); ++i) {
      std::string branch_path = fmt::format("{}[{}]", path, i);
      FLOE_ASSIGN_OR_RETURN(const Node* branch, Parse(array[i], space, branch_path));
      if (branch->type == Type::kUnion) {
        return InvalidArgument("{}: a union may not contain a union", branch_path);
      }
      std::string key =
          branch->is_named() ? branch->full_name : std::string(TypeName(branch->type));
      if (!seen.insert(key).second) {
        return InvalidArgument("{}: the union holds '{}' twice", branch_path, key);
      }
      node->branches.push_back(branch);
    }
    return node;
  }

  // Keys of json other than the structural ones, in order.
  static Json::Object Extra(const Json& json, std::initializer_list<std::string_view> structural) {
    Json::Object out;
    for (const auto& [k, v] : json.as_object()) {
      if (std::find(structural.begin(), structural.end(), k) == structural.end())
        out.emplace_back(k, v);
    }
    return out;
  }

  static Result<std::optional<std::string>> Doc(const Json& json, const std::string& path) {
    const Json* doc = json.Find("doc");
    if (doc == nullptr) return std::nullopt;
    if (!doc->is_string()) return InvalidArgument("{}: doc must be a string", path);
    return doc->as_string();
  }

  Result<const Node*> ParseObject(const Json& json, const std::string& space,
                                  const std::string& path) {
    const Json* type_json = json.Find("type");
    if (type_json == nullptr) return InvalidArgument("{}: missing \"type\"", path);
    if (!type_json->is_string()) {
      // {"type": {...}} or {"type": [...]}: the nested schema is the type itself.
      return Parse(*type_json, space, path + ".type");
    }
    const std::string& type_name = type_json->as_string();
    if (std::optional<Type> primitive = PrimitiveType(type_name)) {
      Node* node = NewNode(*primitive);
      node->attributes = Extra(json, {"type"});
      ApplyLogicalType(*node);
      return node;
    }
    if (type_name == "record" || type_name == "error") return ParseRecord(json, space, path);
    if (type_name == "enum") return ParseEnum(json, space, path);
    if (type_name == "fixed") return ParseFixed(json, space, path);
    if (type_name == "array" || type_name == "map") {
      bool is_array = type_name == "array";
      const char* key = is_array ? "items" : "values";
      const Json* child = json.Find(key);
      if (child == nullptr) return InvalidArgument("{}: {} without \"{}\"", path, type_name, key);
      FLOE_ASSIGN_OR_RETURN(const Node* child_node, Parse(*child, space, path + "." + key));
      Node* node = NewNode(is_array ? Type::kArray : Type::kMap);
      (is_array ? node->items : node->values) = child_node;
      node->attributes = Extra(json, {"type", key});
      return node;
    }
    // A named type given in object form, {"type": "MyRecord"}.
    return Reference(type_name, space, path);
  }

  Result<Node*> NamedNode(Type type, const Json& json, const std::string& space,
                          const std::string& path) {
    const Json* name = json.Find("name");
    if (name == nullptr) return InvalidArgument("{}: {} without a name", path, TypeName(type));
    if (!name->is_string())
      return InvalidArgument("{}: {} name must be a string", path, TypeName(type));
    Node* node = NewNode(type);
    FLOE_ASSIGN_OR_RETURN(node->full_name, FullName(name->as_string(), json, space, path));
    FLOE_ASSIGN_OR_RETURN(node->aliases, Aliases(json, SpaceOf(node->full_name), true, path));
    FLOE_ASSIGN_OR_RETURN(node->doc, Doc(json, path));
    return node;
  }

  Result<const Node*> ParseRecord(const Json& json, const std::string& space,
                                  const std::string& path) {
    FLOE_ASSIGN_OR_RETURN(Node * node, NamedNode(Type::kRecord, json, space, path));
    const Json* fields = json.Find("fields");
    if (fields == nullptr || !fields->is_array()) {
      return InvalidArgument("{}: record '{}' needs a \"fields\" array", path, node->full_name);
    }
    // Registered before its fields so that they may refer to it.
    FLOE_RETURN_IF_ERROR(Register(node, path));
    std::string inner_space = SpaceOf(node->full_name);
    std::string record_path = path + "." + node->full_name;
    std::set<std::string> names;
    for (size_t i = 0; i < fields->as_array().size(); ++i) {
      const Json& f = fields->as_array()[i];
      std::string field_path = fmt::format("{}.fields[{}]", record_path, i);
      if (!f.is_object()) return InvalidArgument("{}: a field must be an object", field_path);
      Field field;
      const Json* name = f.Find("name");
      if (name == nullptr || !name->is_string()) {
        return InvalidArgument("{}: a field needs a string \"name\"", field_path);
      }
      field.name = name->as_string();
      field_path = record_path + "." + field.name;
      if (!IsValidName(field.name)) return InvalidArgument("{}: invalid field name", field_path);
      if (!names.insert(field.name).second)
        return InvalidArgument("{}: duplicate field", field_path);
      const Json* type = f.Find("type");
      if (type == nullptr) return InvalidArgument("{}: a field needs a \"type\"", field_path);
      FLOE_ASSIGN_OR_RETURN(field.type, Parse(*type, inner_space, field_path));
      if (const Json* def = f.Find("default")) field.default_value = *def;
      FLOE_ASSIGN_OR_RETURN(field.aliases, Aliases(f, inner_space, false, field_path));
      FLOE_ASSIGN_OR_RETURN(field.doc, Doc(f, field_path));
      field.attributes = Extra(f, {"name", "type", "default", "aliases", "doc"});
      std::optional<int64_t> id = AttributeInt(field.attributes, "field-id");
      if (id && *id >= INT32_MIN && *id <= INT32_MAX) field.field_id = static_cast<int32_t>(*id);
      node->fields.push_back(std::move(field));
    }
    node->attributes = Extra(json, {"type", "name", "namespace", "aliases", "doc", "fields"});
    return node;
  }

  Result<const Node*> ParseEnum(const Json& json, const std::string& space,
                                const std::string& path) {
    FLOE_ASSIGN_OR_RETURN(Node * node, NamedNode(Type::kEnum, json, space, path));
    const Json* symbols = json.Find("symbols");
    if (symbols == nullptr || !symbols->is_array()) {
      return InvalidArgument("{}: enum '{}' needs a \"symbols\" array", path, node->full_name);
    }
    std::set<std::string> seen;
    for (const Json& s : symbols->as_array()) {
      if (!s.is_string() || !IsValidName(s.as_string())) {
        return InvalidArgument("{}: enum '{}' has an invalid symbol {}", path, node->full_name,
                               s.Dump());
      }
      if (!seen.insert(s.as_string()).second) {
        return InvalidArgument("{}: enum '{}' repeats symbol {}", path, node->full_name,
                               s.as_string());
      }
      node->symbols.push_back(s.as_string());
    }
    if (const Json* def = json.Find("default")) {
      if (!def->is_string() || !seen.contains(def->as_string())) {
        return InvalidArgument("{}: enum '{}' default is not one of its symbols", path,
                               node->full_name);
      }
      node->enum_default = def->as_string();
    }
    node->attributes =
        Extra(json, {"type", "name", "namespace", "aliases", "doc", "symbols", "default"});
    FLOE_RETURN_IF_ERROR(Register(node, path));
    return node;
  }

  Result<const Node*> ParseFixed(const Json& json, const std::string& space,
                                 const std::string& path) {
    FLOE_ASSIGN_OR_RETURN(Node * node, NamedNode(Type::kFixed, json, space, path));
    const Json* size = json.Find("size");
    if (size == nullptr || !size->is_int() || size->as_int() < 0 || size->as_int() > INT32_MAX) {
      return InvalidArgument("{}: fixed '{}' needs a non-negative integer \"size\"", path,
                             node->full_name);
    }
    node->fixed_size = size->as_int();
    node->attributes = Extra(json, {"type", "name", "namespace", "aliases", "doc", "size"});
    ApplyLogicalType(*node);
    FLOE_RETURN_IF_ERROR(Register(node, path));
    return node;
  }

  Schema& schema_;
};

Result<std::shared_ptr<const Schema>> Schema::FromJson(const Json& json) {
  auto schema = std::make_shared<Schema>();
  SchemaParser parser(*schema);
  FLOE_ASSIGN_OR_RETURN(schema->root_, parser.Parse(json, "", "schema"));
  return std::shared_ptr<const Schema>(std::move(schema));
}

Result<std::shared_ptr<const Schema>> Schema::Parse(std::string_view text) {
  auto json = Json::Parse(text);
  if (!json) {
    return InvalidArgument("schema is not valid JSON: {}", json.error().message());
  }
  return FromJson(*json);
}

const Node* Schema::FindNamed(std::string_view full_name) const {
  auto it = named_.find(std::string(full_name));
  return it == named_.end() ? nullptr : it->second;
}

namespace {

Json AliasesJson(const std::vector<std::string>& aliases) {
  Json out = Json::MakeArray();
  for (const std::string& a : aliases) out.Push(a);
  return out;
}

Json NodeToJson(const Node& node, const std::string& space, std::set<const Node*>& defined) {
  if (node.is_named() && defined.contains(&node)) {
    std::string_view ns = node.name_space();
    return Json(ns == space ? std::string(node.name()) : node.full_name);
  }
  switch (node.type) {
    case Type::kUnion: {
      Json out = Json::MakeArray();
      for (const Node* branch : node.branches) out.Push(NodeToJson(*branch, space, defined));
      return out;
    }
    case Type::kArray:
    case Type::kMap: {
      Json out = Json::MakeObject();
      out.Set("type", TypeName(node.type));
      if (node.type == Type::kArray) {
        out.Set("items", NodeToJson(*node.items, space, defined));
      } else {
        out.Set("values", NodeToJson(*node.values, space, defined));
      }
      for (const auto& [k, v] : node.attributes) out.Set(k, v);
      return out;
    }
    case Type::kRecord:
    case Type::kEnum:
    case Type::kFixed: {
      defined.insert(&node);
      Json out = Json::MakeObject();
      out.Set("type", TypeName(node.type));
      out.Set("name", std::string(node.name()));
      std::string ns(node.name_space());
      if (ns != space) out.Set("namespace", ns);
      if (node.doc) out.Set("doc", *node.doc);
      if (!node.aliases.empty()) out.Set("aliases", AliasesJson(node.aliases));
      if (node.type == Type::kRecord) {
        Json fields = Json::MakeArray();
        for (const Field& field : node.fields) {
          Json f = Json::MakeObject();
          f.Set("name", field.name);
          f.Set("type", NodeToJson(*field.type, ns, defined));
          if (field.doc) f.Set("doc", *field.doc);
          if (field.default_value) f.Set("default", *field.default_value);
          if (!field.aliases.empty()) f.Set("aliases", AliasesJson(field.aliases));
          for (const auto& [k, v] : field.attributes) f.Set(k, v);
          fields.Push(std::move(f));
        }
        out.Set("fields", std::move(fields));
      } else if (node.type == Type::kEnum) {
        Json symbols = Json::MakeArray();
        for (const std::string& s : node.symbols) symbols.Push(s);
        out.Set("symbols", std::move(symbols));
        if (node.enum_default) out.Set("default", *node.enum_default);
      } else {
        out.Set("size", node.fixed_size);
      }
      for (const auto& [k, v] : node.attributes) out.Set(k, v);
      return out;
    }
    default:
      if (node.attributes.empty()) return Json(TypeName(node.type));
      Json out = Json::MakeObject();
      out.Set("type", TypeName(node.type));
      for (const auto& [k, v] : node.attributes) out.Set(k, v);
      return out;
  }
}

Json CanonicalJson(const Node& node, std::set<const Node*>& defined) {
  if (node.is_named() && defined.contains(&node)) return Json(node.full_name);
  switch (node.type) {
    case Type::kUnion: {
      Json out = Json::MakeArray();
      for (const Node* branch : node.branches) out.Push(CanonicalJson(*branch, defined));
      return out;
    }
    case Type::kArray:
      return Json(Json::Object{{"type", "array"}, {"items", CanonicalJson(*node.items, defined)}});
    case Type::kMap:
      return Json(Json::Object{{"type", "map"}, {"values", CanonicalJson(*node.values, defined)}});
    case Type::kRecord: {
      defined.insert(&node);
      Json fields = Json::MakeArray();
      for (const Field& field : node.fields) {
        fields.Push(Json(
            Json::Object{{"name", field.name}, {"type", CanonicalJson(*field.type, defined)}}));
      }
      return Json(Json::Object{
          {"name", node.full_name}, {"type", "record"}, {"fields", std::move(fields)}});
    }
    case Type::kEnum: {
      defined.insert(&node);
      Json symbols = Json::MakeArray();
      for (const std::string& s : node.symbols) symbols.Push(s);
      return Json(Json::Object{
          {"name", node.full_name}, {"type", "enum"}, {"symbols", std::move(symbols)}});
    }
    case Type::kFixed:
      defined.insert(&node);
      return Json(
          Json::Object{{"name", node.full_name}, {"type", "fixed"}, {"size", node.fixed_size}});
    default:
      return Json(TypeName(node.type));
  }
}

}  // namespace

Json Schema::ToJson() const {
  std::set<const Node*> defined;
  return NodeToJson(*root_, "", defined);
}

uint64_t Fingerprint64(std::string_view canonical_form) {
  constexpr uint64_t kEmpty = 0xc15d213aa4d7a795ull;
  static const auto kTable = [] {
    std::array<uint64_t, 256> table{};
    for (uint64_t i = 0; i < 256; ++i) {
      uint64_t fp = i;
      for (int j = 0; j < 8; ++j) fp = (fp >> 1) ^ (kEmpty & (0 - (fp & 1)));
      table[i] = fp;
    }
    return table;
  }();
  uint64_t fp = kEmpty;
  for (char c : canonical_form) fp = (fp >> 8) ^ kTable[(fp ^ static_cast<uint8_t>(c)) & 0xFF];
  return fp;
}

std::string Schema::CanonicalForm() const {
  std::set<const Node*> defined;
  return CanonicalJson(*root_, defined).Dump();
}

}  // namespace floe::avro
