from curator.cli.start import main

raise SystemExit(main())
