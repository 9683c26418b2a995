#include "CCurl.h"

CURLcode encore_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode encore_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode encore_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode encore_curl_set_write_function(CURL *handle, curl_write_callback function) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}

CURLcode encore_curl_set_header_function(CURL *handle, curl_write_callback function) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, function);
}

CURLcode encore_curl_set_progress_function(CURL *handle, curl_xferinfo_callback function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

CURLcode encore_curl_set_prereq_function(CURL *handle, curl_prereq_callback function) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, function);
}

CURLcode encore_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
