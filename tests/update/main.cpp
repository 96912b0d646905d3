#define BOOST_TEST_MODULE update
#include <boost/test/unit_test.hpp>
