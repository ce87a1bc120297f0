#include "floe/stream/iceberg/range_partitioner.h"

#include <algorithm>

#include "floe/spec/schema.h"

namespace floe::stream {

Result<std::optional<SortKey>> SortKey::ForTable(const TableMetadata& metadata) {
  const Schema& schema = *metadata.current_schema();
  SortKey key;
  std::vector<PartitionField> fields;
  auto add = [&](const Transform& transform, const std::vector<int32_t>& sources,
                 SortDirection direction, NullOrder null_order) -> Status {
    const int index = static_cast<int>(fields.size());
    if (sources.size() != 1) {
      return Unsupported("iceberg sink range distribution: sort key field {} has {} sources", index,
                         sources.size());
    }
    const NestedField* source = schema.FindField(sources[0]);
    if (source == nullptr) {
      return InvalidArgument(
          "iceberg sink range distribution: sort key field {} reads column id {}, which the "
          "current schema does not have",
          index, sources[0]);
    }
    FLOE_ASSIGN_OR_RETURN(TypePtr type, transform.ResultType(source->type));
    fields.push_back(PartitionField{sources, PartitionSpec::kFirstFieldId + index,
                                    "sort_key_" + std::to_string(index), transform});
    key.types_.push_back(std::move(type));
    key.directions_.push_back(direction);
    key.null_orders_.push_back(null_order);
    return Ok();
  };
  const SortOrderPtr& order = metadata.default_sort_order();
  if (order != nullptr && !order->is_unsorted()) {
    for (const SortField& field : order->fields()) {
      FLOE_RETURN_IF_ERROR(
          add(field.transform, field.source_ids, field.direction, field.null_order));
    }
    key.description_ = "sort order " + std::to_string(order->order_id());
  } else if (!metadata.default_spec()->is_unpartitioned()) {
    for (const PartitionField& field : metadata.default_spec()->fields()) {
      FLOE_RETURN_IF_ERROR(
          add(field.transform, field.source_ids, SortDirection::kAsc, NullOrder::kNullsFirst));
    }
    key.description_ = "partition spec " + std::to_string(metadata.default_spec()->spec_id());
  } else {
    return std::optional<SortKey>();
  }
  key.spec_ = std::make_shared<const PartitionSpec>(0, std::move(fields));
  return std::optional<SortKey>(std::move(key));
}

int SortKey::Compare(const KeyTuple& a, const KeyTuple& b) const {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const bool a_null = a[i].is_null();
    const bool b_null = b[i].is_null();
    if (a_null || b_null) {
      if (a_null == b_null) continue;
      const bool nulls_first = null_orders_[i] == NullOrder::kNullsFirst;
      return a_null == nulls_first ? -1 : 1;
    }
    const std::partial_ordering order = a[i].Compare(b[i]);
    int c = 0;
    if (order == std::partial_ordering::less) c = -1;
    if (order == std::partial_ordering::greater) c = 1;
    if (directions_[i] == SortDirection::kDesc) c = -c;
    if (c != 0) return c;
  }
  return 0;
}

std::shared_ptr<const RangeAssignment> RangeAssignment::Compute(const SortKey& sort_key,
                                                                std::vector<WeightedKey> sample,
                                                                int writers,
                                                                int64_t checkpoint_id) {
  if (sample.empty() || writers < 1) return nullptr;
  std::sort(sample.begin(), sample.end(), [&](const WeightedKey& a, const WeightedKey& b) {
    return sort_key.Compare(a.key, b.key) < 0;
  });
  // One entry per distinct key.
  std::vector<WeightedKey> keys;
  double total = 0;
  for (WeightedKey& k : sample) {
    total += k.weight;
    if (!keys.empty() && sort_key.Compare(keys.back().key, k.key) == 0) {
      keys.back().weight += k.weight;
    } else {
      keys.push_back(std::move(k));
    }
  }
  if (total <= 0) return nullptr;
  auto assignment = std::make_shared<RangeAssignment>();
  assignment->checkpoint_id_ = checkpoint_id;
  // Bound i is the key in which the running weight reaches (i+1)/writers of the total; the part
  // of that key's weight below the target stays with writer i.
  double before = 0;  // weight of the keys before keys[next]
  size_t next = 0;
  for (int i = 0; i + 1 < writers; ++i) {
    const double target = total * (i + 1) / writers;
    while (next + 1 < keys.size() && before + keys[next].weight < target) {
      before += keys[next++].weight;
    }
    const WeightedKey& key = keys[next];
    assignment->bounds_.push_back(key.key);
    assignment->fractions_.push_back(
        key.weight > 0 ? std::clamp((target - before) / key.weight, 0.0, 1.0) : 1.0);
  }
  return assignment;
}

RangeAssignment::Route RangeAssignment::RouteOf(const SortKey& sort_key,
                                                const KeyTuple& key) const {
  auto less = [&](const KeyTuple& a, const KeyTuple& b) { return sort_key.Compare(a, b) < 0; };
  const auto first = std::lower_bound(bounds_.begin(), bounds_.end(), key, less);
  const auto last = std::upper_bound(first, bounds_.end(), key, less);
  Route route{.first = static_cast<int>(first - bounds_.begin())};
  if (first == last) return route;
  // The key is bounds first..last-1: writers first..last-1 take their fractions of it, writer
  // `last` the rest.
  for (auto it = first; it != last; ++it) {
    route.cumulative.push_back(fractions_[static_cast<size_t>(it - bounds_.begin())]);
  }
  route.cumulative.push_back(1.0);
  return route;
}

Result<Json> RangeAssignment::ToJson() const {
  Json bounds = Json::MakeArray();
  for (const KeyTuple& key : bounds_) {
    Json tuple = Json::MakeArray();
    for (const Literal& value : key) {
      FLOE_ASSIGN_OR_RETURN(Json v, value.ToJson());
      tuple.Push(std::move(v));
    }
    bounds.Push(std::move(tuple));
  }
  Json fractions = Json::MakeArray();
  for (double f : fractions_) fractions.Push(Json(f));
  Json out = Json::MakeObject();
  out.Set("checkpoint-id", Json(checkpoint_id_));
  out.Set("bounds", std::move(bounds));
  out.Set("fractions", std::move(fractions));
  return out;
}

Result<std::shared_ptr<const RangeAssignment>> RangeAssignment::FromJson(const SortKey& sort_key,
                                                                         const Json& json) {
  auto assignment = std::make_shared<RangeAssignment>();
  FLOE_ASSIGN_OR_RETURN(assignment->checkpoint_id_, json.GetInt("checkpoint-id"));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* bounds, json.GetArray("bounds"));
  FLOE_ASSIGN_OR_RETURN(const Json::Array* fractions, json.GetArray("fractions"));
  if (fractions->size() != bounds->size()) {
    return InvalidArgument("range distribution state: {} bounds but {} fractions", bounds->size(),
                           fractions->size());
  }
  for (size_t i = 0; i < bounds->size(); ++i) {
    const Json& tuple = (*bounds)[i];
    if (!tuple.is_array() || tuple.as_array().size() != sort_key.types().size()) {
      return InvalidArgument(
          "range distribution state: bound {} is not a tuple of {} values (the sort key is {})", i,
          sort_key.types().size(), sort_key.description());
    }
    KeyTuple key;
    for (size_t f = 0; f < tuple.as_array().size(); ++f) {
      auto value = Literal::FromJson(sort_key.types()[f], tuple.as_array()[f]);
      if (!value) {
        return InvalidArgument("range distribution state: bound {} field {}: {}", i, f,
                               value.error().message());
      }
      key.push_back(std::move(*value));
    }
    if (!assignment->bounds_.empty() && sort_key.Compare(assignment->bounds_.back(), key) > 0) {
      return InvalidArgument("range distribution state: bound {} is below bound {}", i, i - 1);
    }
    const Json& fraction = (*fractions)[i];
    if (!fraction.is_number() || !(fraction.as_double() >= 0 && fraction.as_double() <= 1)) {
      return InvalidArgument("range distribution state: fraction {} is not in [0, 1]", i);
    }
    assignment->bounds_.push_back(std::move(key));
    assignment->fractions_.push_back(fraction.as_double());
  }
  return std::shared_ptr<const RangeAssignment>(std::move(assignment));
}

}  // namespace floe::stream
