// SPDX-License-Identifier: MIT
// Forwarding header while selfplay/ and tuner/ move rooms (issue 11): the formations are
// janggi's own, in janggi/formation.h. Removed once those rooms include that header.
#pragma once

#include "janggi/formation.h"
