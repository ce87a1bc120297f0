#include "floe/table/write/equality_delete_writer.h"

namespace floe::table {

Result<std::unique_ptr<EqualityDeleteWriter>> EqualityDeleteWriter::Make(
    RollingFileWriterOptions options, std::vector<int32_t> equality_ids,
    std::optional<int32_t> sort_order_id) {
  if (equality_ids.empty()) return InvalidArgument("equality delete writer: no equality ids");
  const Schema& schema = *options.appender.schema;
  for (int32_t id : equality_ids) {
    const NestedField* field = schema.FindField(id);
    if (field == nullptr || !field->type->is_primitive()) {
      return InvalidArgument("equality delete writer: field {} is not a primitive column of {}", id,
                             schema.ToString());
    }
    for (auto parent = schema.FindParentId(id); parent; parent = schema.FindParentId(*parent)) {
      const TypeId kind = schema.FindField(*parent)->type->id();
      if (kind == TypeId::kList || kind == TypeId::kMap) {
        return InvalidArgument("equality delete writer: field {} lies inside a list or map", id);
      }
    }
  }
  options.file_template.content = manifest::FileContent::kEqualityDeletes;
  options.file_template.equality_ids = std::move(equality_ids);
  options.file_template.sort_order_id = sort_order_id;
  return std::unique_ptr<EqualityDeleteWriter>(new EqualityDeleteWriter(std::move(options)));
}

}  // namespace floe::table
