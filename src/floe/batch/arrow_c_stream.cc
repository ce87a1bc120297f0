#include "floe/batch/arrow_c_stream.h"

#include <cerrno>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace floe {
namespace {

struct StreamPrivate {
  BatchSchemaPtr schema;
  BatchProducer next;
  std::string last_error;
};

StreamPrivate& Private(ArrowArrayStream* stream) {
  return *static_cast<StreamPrivate*>(stream->private_data);
}

int Fail(StreamPrivate& data, const Error& error, int code) {
  data.last_error = error.ToString();
  return code;
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  StreamPrivate& data = Private(stream);
  Status exported = ExportType(*DataType::Struct(data.schema->fields()), out);
  return exported.has_value() ? 0 : Fail(data, exported.error(), EINVAL);
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  StreamPrivate& data = Private(stream);
  Result<std::optional<RecordBatch>> batch = data.next();
  if (!batch.has_value()) return Fail(data, batch.error(), EIO);
  if (!batch->has_value()) {
    // The end of the stream: a released array.
    *out = ArrowArray{};
    return 0;
  }
  if (!(*batch)->schema()->Equals(*data.schema)) {
    return Fail(data,
                InvalidArgument("a batch of schema ({}) in a stream of schema ({})",
                                (*batch)->schema()->ToString(), data.schema->ToString())
                    .error(),
                EINVAL);
  }
  Status exported = ExportRecordBatch(**batch, nullptr, out);
  return exported.has_value() ? 0 : Fail(data, exported.error(), EINVAL);
}

const char* GetLastError(ArrowArrayStream* stream) {
  const std::string& error = Private(stream).last_error;
  return error.empty() ? nullptr : error.c_str();
}

void Release(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete static_cast<StreamPrivate*>(stream->private_data);
  stream->release = nullptr;
}

// Releases the stream when it goes out of scope, whatever happens to the import.
struct StreamReleaser {
  ArrowArrayStream* stream;
  ~StreamReleaser() {
    if (stream->release != nullptr) stream->release(stream);
  }
};

Error StreamError(ArrowArrayStream* stream, int code, std::string_view what) {
  const char* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
  return Error(ErrorKind::kInvalidArgument,
               fmt::format("Arrow stream {} failed (errno {}){}{}", what, code,
                           message != nullptr ? ": " : "", message != nullptr ? message : ""));
}

}  // namespace

void ExportBatchStream(BatchSchemaPtr schema, BatchProducer next, ArrowArrayStream* out) {
  auto* data = new StreamPrivate{std::move(schema), std::move(next), {}};
  out->get_schema = GetSchema;
  out->get_next = GetNext;
  out->get_last_error = GetLastError;
  out->release = Release;
  out->private_data = data;
}

Result<std::vector<RecordBatch>> ImportBatchStream(ArrowArrayStream* stream,
                                                   BatchSchemaPtr* schema) {
  if (stream == nullptr || stream->release == nullptr) {
    return InvalidArgument("the Arrow stream is released");
  }
  StreamReleaser releaser{stream};
  ArrowSchema arrow_schema{};
  if (int code = stream->get_schema(stream, &arrow_schema); code != 0) {
    return std::unexpected(StreamError(stream, code, "get_schema"));
  }
  FLOE_ASSIGN_OR_RETURN(DataTypePtr type, ImportType(&arrow_schema));
  if (type->kind() != TypeKind::kStruct) {
    return InvalidArgument("an Arrow stream of {} values, not of record batches (a struct)",
                           type->ToString());
  }
  *schema = std::make_shared<const BatchSchema>(type->fields());
  std::vector<RecordBatch> batches;
  while (true) {
    ArrowArray array{};
    if (int code = stream->get_next(stream, &array); code != 0) {
      return std::unexpected(StreamError(stream, code, "get_next"));
    }
    if (array.release == nullptr) break;
    FLOE_ASSIGN_OR_RETURN(Array rows, ImportArray(&array, type));
    std::vector<Array> columns;
    columns.reserve(static_cast<size_t>(rows.num_children()));
    for (int i = 0; i < rows.num_children(); ++i) columns.push_back(rows.field(i));
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                          RecordBatch::Make(*schema, std::move(columns), rows.length()));
    batches.push_back(std::move(batch));
  }
  return batches;
}

}  // namespace floe
