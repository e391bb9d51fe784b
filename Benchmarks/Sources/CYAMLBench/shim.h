// libyaml, for measuring its raw event-parse rate beside scenec's loading.
#include <yaml.h>
