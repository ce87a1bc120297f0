#pragma once

// The rows of a running query job, for the client: the job runs on its own thread and its sink
// hands batches to a bounded queue (so a fast job waits for a slow reader instead of filling
// memory), which Next drains. Cancel (any thread) stops the job; destroying the stream cancels it
// and waits for its thread. A job error comes out of Next once the rows before it are read.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "floe/sql/statement_result.h"
#include "floe/stream/data_stream.h"

namespace floe::sql {

// Adds the queue sink to `stream` (built on `env`), then starts `env`'s job named `job_name`.
// `row_limit`: the query gives at most this many rows (a LIMIT at its top), so once they have
// arrived the rows end and the job is cancelled instead of reading its sources to the end.
std::unique_ptr<RowStream> StartQueryJob(std::unique_ptr<stream::StreamEnvironment> env,
                                         const stream::DataStream& stream, std::string job_name,
                                         std::optional<int64_t> row_limit = std::nullopt);

}  // namespace floe::sql
