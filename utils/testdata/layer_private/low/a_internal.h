/* private to low/ */
