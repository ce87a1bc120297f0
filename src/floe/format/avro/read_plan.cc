#include "floe/format/avro/read_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace floe::avro {
namespace {

// Decodes the code points of a JSON string whose characters stand for bytes (0-255), as Avro writes
// bytes and fixed defaults.
Result<std::string> CodePointsToBytes(const std::string& utf8) {
  std::string out;
  for (size_t i = 0; i < utf8.size();) {
    auto c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      i += 1;
    } else if ((c & 0xE0) == 0xC0 && i + 1 < utf8.size()) {
      unsigned cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu);
      if (cp > 0xFF) return InvalidArgument("bytes default has a character above U+00FF");
      out.push_back(static_cast<char>(cp));
      i += 2;
    } else {
      return InvalidArgument("bytes default has a character above U+00FF");
    }
  }
  return out;
}

size_t MinSize(const Node& node, std::set<const Node*>& visiting) {
  switch (node.type) {
    case Type::kNull:
      return 0;
    case Type::kFloat:
      return 4;
    case Type::kDouble:
      return 8;
    case Type::kFixed:
      return static_cast<size_t>(node.fixed_size);
    case Type::kRecord: {
      if (!visiting.insert(&node).second) return 0;
      size_t total = 0;
      for (const Field& f : node.fields) total += MinSize(*f.type, visiting);
      visiting.erase(&node);
      return total;
    }
    default:
      return 1;
  }
}

}  // namespace

size_t MinEncodedSize(const Node& node) {
  std::set<const Node*> visiting;
  return MinSize(node, visiting);
}

Result<Datum> DefaultToDatum(const Node& type, const Json& value) {
  auto mismatch = [&]() {
    return InvalidArgument("default {} does not match type {}", value.Dump(), TypeName(type.type));
  };
  switch (type.type) {
    case Type::kNull:
      if (!value.is_null()) return mismatch();
      return Datum();
    case Type::kBoolean:
      if (!value.is_bool()) return mismatch();
      return Datum(value.as_bool());
    case Type::kInt:
      if (!value.is_int() || value.as_int() < INT32_MIN || value.as_int() > INT32_MAX)
        return mismatch();
      return Datum(static_cast<int32_t>(value.as_int()));
    case Type::kLong:
      if (!value.is_int()) return mismatch();
      return Datum(value.as_int());
    case Type::kFloat:
      if (!value.is_number()) return mismatch();
      return Datum(static_cast<float>(value.as_double()));
    case Type::kDouble:
      if (!value.is_number()) return mismatch();
      return Datum(value.as_double());
    case Type::kString:
      if (!value.is_string()) return mismatch();
      return Datum(value.as_string());
    case Type::kBytes:
    case Type::kFixed: {
      if (!value.is_string()) return mismatch();
      FLOE_ASSIGN_OR_RETURN(std::string bytes, CodePointsToBytes(value.as_string()));
      if (type.type == Type::kFixed && bytes.size() != static_cast<size_t>(type.fixed_size)) {
        return mismatch();
      }
      return Datum(Bytes{std::move(bytes)});
    }
    case Type::kEnum: {
      if (!value.is_string()) return mismatch();
      for (size_t i = 0; i < type.symbols.size(); ++i) {
        if (type.symbols[i] == value.as_string()) return Datum(EnumValue{static_cast<int32_t>(i)});
      }
      return mismatch();
    }
    case Type::kArray: {
      if (!value.is_array()) return mismatch();
      Array array;
      for (const Json& item : value.as_array()) {
        FLOE_ASSIGN_OR_RETURN(Datum d, DefaultToDatum(*type.items, item));
        array.items.push_back(std::move(d));
      }
      return Datum(std::move(array));
    }
    case Type::kMap: {
      if (!value.is_object()) return mismatch();
      Map map;
      for (const auto& [k, v] : value.as_object()) {
        FLOE_ASSIGN_OR_RETURN(Datum d, DefaultToDatum(*type.values, v));
        map.entries.emplace_back(k, std::move(d));
      }
      return Datum(std::move(map));
    }
    case Type::kRecord: {
      if (!value.is_object()) return mismatch();
      Record record;
      for (const Field& field : type.fields) {
        const Json* v = value.Find(field.name);
        if (v == nullptr && field.default_value) v = &*field.default_value;
        if (v == nullptr) return InvalidArgument("default lacks field '{}'", field.name);
        FLOE_ASSIGN_OR_RETURN(Datum d, DefaultToDatum(*field.type, *v));
        record.fields.push_back(std::move(d));
      }
      return Datum(std::move(record));
    }
    case Type::kUnion:
      // The specification ties a union's default to its first branch; later branches are accepted
      // too, as newer Avro releases do.
      for (size_t i = 0; i < type.branches.size(); ++i) {
        auto d = DefaultToDatum(*type.branches[i], value);
        if (d) return Datum(Union(i, std::move(*d)));
      }
      return mismatch();
  }
  return mismatch();
}

class PlanBuilder {
 public:
  explicit PlanBuilder(ResolvedSchema& out) : out_(out) {}

  Result<const ReadPlan*> Build(const Node& w, const Node& r, const std::string& path) {
    auto key = std::make_pair(&w, &r);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    out_.plans_.push_back(std::make_unique<ReadPlan>());
    ReadPlan* plan = out_.plans_.back().get();
    plan->writer = &w;
    plan->reader = &r;
    // Registered before the children so that recursive types resolve to this same plan.
    memo_.emplace(key, plan);
    Status status = Fill(*plan, w, r, path);
    if (!status) {
      memo_.erase(key);
      return std::unexpected(status.error());
    }
    return plan;
  }

 private:
  static std::unexpected<Error> Mismatch(const Node& w, const Node& r, const std::string& path) {
    return InvalidArgument("{}: cannot read writer type {} as reader type {}", path,
                           w.is_named() ? w.full_name : std::string(TypeName(w.type)),
                           r.is_named() ? r.full_name : std::string(TypeName(r.type)));
  }

  // Whether a writer type reads as a reader type without promotion (for choosing union branches).
  static bool SameKind(const Node& w, const Node& r) {
    if (w.type != r.type) return false;
    if (w.is_named()) return w.name() == r.name();
    return true;
  }

  Status Fill(ReadPlan& plan, const Node& w, const Node& r, const std::string& path) {
    using A = ReadPlan::Action;
    if (w.type == Type::kUnion) {
      plan.action = A::kWriterUnion;
      bool any = w.branches.empty();
      for (size_t i = 0; i < w.branches.size(); ++i) {
        auto child = Build(*w.branches[i], r, fmt::format("{}[{}]", path, i));
        plan.children.push_back(child ? *child : nullptr);
        any = any || child.has_value();
      }
      if (!any) return Mismatch(w, r, path);
      return Ok();
    }
    if (r.type == Type::kUnion) {
      plan.action = A::kReaderUnion;
      std::optional<size_t> chosen;
      for (size_t i = 0; i < r.branches.size() && !chosen; ++i) {
        if (SameKind(w, *r.branches[i])) chosen = i;
      }
      for (size_t i = 0; i < r.branches.size() && !chosen; ++i) {
        if (Build(w, *r.branches[i], path)) chosen = i;
      }
      if (!chosen) return Mismatch(w, r, path);
      FLOE_ASSIGN_OR_RETURN(const ReadPlan* child, Build(w, *r.branches[*chosen], path));
      plan.children.push_back(child);
      plan.reader_branch = *chosen;
      return Ok();
    }
    switch (r.type) {
      case Type::kNull:
        if (w.type != Type::kNull) return Mismatch(w, r, path);
        plan.action = A::kNull;
        return Ok();
      case Type::kBoolean:
        if (w.type != Type::kBoolean) return Mismatch(w, r, path);
        plan.action = A::kBoolean;
        return Ok();
      case Type::kInt:
        if (w.type != Type::kInt) return Mismatch(w, r, path);
        plan.action = A::kInt;
        return Ok();
      case Type::kLong:
        if (w.type == Type::kLong) {
          plan.action = A::kLong;
        } else if (w.type == Type::kInt) {
          plan.action = A::kIntToLong;
        } else {
          return Mismatch(w, r, path);
        }
        return Ok();
      case Type::kFloat:
        if (w.type == Type::kFloat) {
          plan.action = A::kFloat;
        } else if (w.type == Type::kInt) {
          plan.action = A::kIntToFloat;
        } else if (w.type == Type::kLong) {
          plan.action = A::kLongToFloat;
        } else {
          return Mismatch(w, r, path);
        }
        return Ok();
      case Type::kDouble:
        switch (w.type) {
          case Type::kDouble:
            plan.action = A::kDouble;
            return Ok();
          case Type::kInt:
            plan.action = A::kIntToDouble;
            return Ok();
          case Type::kLong:
            plan.action = A::kLongToDouble;
            return Ok();
          case Type::kFloat:
            plan.action = A::kFloatToDouble;
            return Ok();
          default:
            return Mismatch(w, r, path);
        }
      case Type::kBytes:
        if (w.type == Type::kBytes) {
          plan.action = A::kBytes;
        } else if (w.type == Type::kString) {
          plan.action = A::kStringToBytes;
        } else {
          return Mismatch(w, r, path);
        }
        return Ok();
      case Type::kString:
        if (w.type == Type::kString) {
          plan.action = A::kString;
        } else if (w.type == Type::kBytes) {
          plan.action = A::kBytesToString;
        } else {
          return Mismatch(w, r, path);
        }
        return Ok();
      case Type::kFixed:
        if (w.type != Type::kFixed) return Mismatch(w, r, path);
        // Iceberg widens decimal precision, which can widen the fixed that holds the values.
        if (w.fixed_size != r.fixed_size &&
            !(w.logical_type == LogicalType::kDecimal && r.logical_type == LogicalType::kDecimal &&
              w.scale == r.scale && w.precision <= r.precision)) {
          return Mismatch(w, r, path);
        }
        plan.action = A::kFixed;
        return Ok();
      case Type::kEnum: {
        if (w.type != Type::kEnum) return Mismatch(w, r, path);
        plan.action = A::kEnum;
        std::optional<int32_t> fallback;
        for (size_t j = 0; j < r.symbols.size(); ++j) {
          if (r.enum_default && r.symbols[j] == *r.enum_default) fallback = static_cast<int32_t>(j);
        }
        for (const std::string& symbol : w.symbols) {
          int32_t mapped = fallback.value_or(-1);
          for (size_t j = 0; j < r.symbols.size(); ++j) {
            if (r.symbols[j] == symbol) mapped = static_cast<int32_t>(j);
          }
          plan.enum_map.push_back(mapped);
        }
        return Ok();
      }
      case Type::kArray: {
        if (w.type != Type::kArray) return Mismatch(w, r, path);
        plan.action = A::kArray;
        plan.min_item_size = MinEncodedSize(*w.items);
        FLOE_ASSIGN_OR_RETURN(const ReadPlan* items, Build(*w.items, *r.items, path + "[]"));
        plan.children.push_back(items);
        return Ok();
      }
      case Type::kMap: {
        if (w.type != Type::kMap) return Mismatch(w, r, path);
        plan.action = A::kMap;
        FLOE_ASSIGN_OR_RETURN(const ReadPlan* values, Build(*w.values, *r.values, path + "{}"));
        plan.children.push_back(values);
        return Ok();
      }
      case Type::kRecord:
        if (w.type != Type::kRecord) return Mismatch(w, r, path);
        return FillRecord(plan, w, r, path);
      case Type::kUnion:
        break;
    }
    return Mismatch(w, r, path);
  }

  static std::optional<size_t> MatchField(const Node& w, const Field& rf, bool by_id) {
    if (by_id) {
      for (size_t i = 0; i < w.fields.size(); ++i) {
        if (w.fields[i].field_id == rf.field_id) return i;
      }
      return std::nullopt;
    }
    if (auto i = w.FieldIndex(rf.name)) return i;
    for (const std::string& alias : rf.aliases) {
      if (auto i = w.FieldIndex(alias)) return i;
    }
    return std::nullopt;
  }

  Status FillRecord(ReadPlan& plan, const Node& w, const Node& r, const std::string& path) {
    plan.action = ReadPlan::Action::kRecord;
    bool writer_has_ids = std::any_of(w.fields.begin(), w.fields.end(),
                                      [](const Field& f) { return f.field_id.has_value(); });
    plan.steps.resize(w.fields.size());
    for (size_t i = 0; i < w.fields.size(); ++i) plan.steps[i].writer_type = w.fields[i].type;
    for (size_t j = 0; j < r.fields.size(); ++j) {
      const Field& rf = r.fields[j];
      std::string field_path = path + "." + rf.name;
      std::optional<size_t> wi = MatchField(w, rf, writer_has_ids && rf.field_id.has_value());
      if (wi && plan.steps[*wi].reader_index >= 0) {
        return InvalidArgument("{}: writer field '{}' matches two reader fields", field_path,
                               w.fields[*wi].name);
      }
      if (wi) {
        FLOE_ASSIGN_OR_RETURN(const ReadPlan* child,
                              Build(*w.fields[*wi].type, *rf.type, field_path));
        plan.steps[*wi].reader_index = static_cast<int32_t>(j);
        plan.steps[*wi].plan = child;
        continue;
      }
      if (rf.default_value) {
        auto d = DefaultToDatum(*rf.type, *rf.default_value);
        if (!d) return std::unexpected(std::move(d.error().AddContext(field_path)));
        plan.defaults.emplace_back(j, std::move(*d));
      } else if (std::optional<size_t> null_branch = NullBranchOf(*rf.type)) {
        // An optional field the writer did not know: null, as Iceberg reads missing optional
        // columns.
        plan.defaults.emplace_back(j, Datum(Union(*null_branch, Datum())));
      } else {
        return InvalidArgument("{}: the writer has no such field and the reader gives no default",
                               field_path);
      }
    }
    return Ok();
  }

  static std::optional<size_t> NullBranchOf(const Node& n) {
    if (n.type != Type::kUnion) return std::nullopt;
    for (size_t i = 0; i < n.branches.size(); ++i) {
      if (n.branches[i]->type == Type::kNull) return i;
    }
    return std::nullopt;
  }

  ResolvedSchema& out_;
  std::map<std::pair<const Node*, const Node*>, ReadPlan*> memo_;
};

Result<std::shared_ptr<const ResolvedSchema>> ResolvedSchema::Make(
    std::shared_ptr<const Schema> writer, std::shared_ptr<const Schema> reader) {
  if (writer == nullptr) return InvalidArgument("no writer schema");
  auto resolved = std::make_shared<ResolvedSchema>();
  resolved->writer_ = std::move(writer);
  resolved->reader_ = reader ? std::move(reader) : resolved->writer_;
  PlanBuilder builder(*resolved);
  FLOE_ASSIGN_OR_RETURN(resolved->root_, builder.Build(resolved->writer_->root(),
                                                       resolved->reader_->root(), "schema"));
  return std::shared_ptr<const ResolvedSchema>(std::move(resolved));
}

}  // namespace floe::avro
