#include "floe/util/thread_pool.h"

#include <algorithm>
#include <atomic>

namespace floe {

ThreadPool::ThreadPool(size_t workers) {
  threads_.reserve(workers);
  for (size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

size_t ThreadPool::DefaultWorkers() {
  return std::max<size_t>(1, std::thread::hardware_concurrency());
}

void ThreadPool::Enqueue(std::function<void()> task) {
  if (threads_.empty()) {
    task();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    queue_.push(std::move(task));
  }
  wake_.notify_one();
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop();
    }
    task();
  }
}

void ThreadPool::ParallelFor(size_t n, const std::function<void(size_t)>& body) {
  if (n == 0) return;
  // Workers and the caller take indices from one counter; the caller then waits only for calls
  // already running, so a busy pool costs parallelism, never progress.
  struct State {
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::condition_variable done;
    size_t running = 0;
  };
  auto state = std::make_shared<State>();
  auto drain = [state, n, &body] {
    {
      std::lock_guard lock(state->mutex);
      ++state->running;
    }
    for (size_t i; (i = state->next.fetch_add(1)) < n;) body(i);
    std::lock_guard lock(state->mutex);
    if (--state->running == 0) state->done.notify_all();
  };
  size_t helpers = std::min(threads_.size(), n - 1);
  for (size_t i = 0; i < helpers; ++i) Enqueue(drain);
  drain();
  std::unique_lock lock(state->mutex);
  state->done.wait(lock, [&] { return state->running == 0; });
}

}  // namespace floe
