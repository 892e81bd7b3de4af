// Forward declarations of the runtime's classes, for headers that only name them (in references and pointers).
#pragma once

namespace tegula::rt {
class buffer;
class device;
class event;
class kernel;
class object_code;
class stream;
}  // namespace tegula::rt
