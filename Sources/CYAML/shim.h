// libyaml, as installed by Debian's libyaml-dev or Homebrew's libyaml (pkg-config: yaml-0.1).
#include <yaml.h>
