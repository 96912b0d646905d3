#define BOOST_TEST_MODULE sync_mqtt
#include <boost/test/unit_test.hpp>
