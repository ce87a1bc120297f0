#include "floe/spec/sort_order_json.h"

#include <fmt/format.h>

#include "floe/spec/transform_json.h"

namespace floe {
namespace {

Result<SortField> FieldFromJson(const Json& json) {
  if (!json.is_object()) {
    return CorruptData("expected an object, found {}", Json::KindName(json.kind()));
  }
  SortField field;
  FLOE_ASSIGN_OR_RETURN(field.transform, TransformFromJson(json));
  FLOE_ASSIGN_OR_RETURN(field.source_ids, SourceIdsFromJson(json));
  FLOE_ASSIGN_OR_RETURN(std::string direction, json.GetString("direction"));
  FLOE_ASSIGN_OR_RETURN(std::string null_order, json.GetString("null-order"));
  auto parsed_direction = ParseSortDirection(direction);
  if (!parsed_direction) return CorruptData("{}", parsed_direction.error().message());
  auto parsed_null_order = ParseNullOrder(null_order);
  if (!parsed_null_order) return CorruptData("{}", parsed_null_order.error().message());
  field.direction = *parsed_direction;
  field.null_order = *parsed_null_order;
  return field;
}

}  // namespace

Json SortOrderToJson(const SortOrder& order) {
  Json fields = Json::MakeArray();
  for (const auto& field : order.fields()) {
    Json json = Json::MakeObject();
    json.Set("transform", Json(field.transform.ToString()));
    SetSourceIdsJson(json, field.source_ids);
    json.Set("direction", Json(SortDirectionName(field.direction)));
    json.Set("null-order", Json(NullOrderName(field.null_order)));
    fields.Push(std::move(json));
  }
  Json json = Json::MakeObject();
  json.Set("order-id", Json(int64_t{order.order_id()}));
  json.Set("fields", std::move(fields));
  return json;
}

Result<SortOrderPtr> SortOrderFromJson(const Json& json) {
  if (!json.is_object()) {
    return CorruptData("sort order: expected an object, found {}", Json::KindName(json.kind()));
  }
  auto order_id = GetInt32(json, "order-id");
  if (!order_id) return std::unexpected(std::move(order_id.error()).AddContext("sort order"));
  const std::string where = fmt::format("sort order {}", *order_id);
  auto fields = json.GetArray("fields");
  if (!fields) return std::unexpected(std::move(fields.error()).AddContext(where));
  std::vector<SortField> parsed;
  for (size_t i = 0; i < (*fields)->size(); ++i) {
    auto field = FieldFromJson((**fields)[i]);
    if (!field) {
      return std::unexpected(
          std::move(field.error()).AddContext(fmt::format("{} field {}", where, i)));
    }
    parsed.push_back(*std::move(field));
  }
  return std::make_shared<const SortOrder>(*order_id, std::move(parsed));
}

}  // namespace floe
