from curator.main import main

raise SystemExit(main())
