/* a private header of high/ */
