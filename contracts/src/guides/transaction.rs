//! Guides of the codes a refused transaction carries: selectors, unsupported changes,
//! payloads, no-ops, duplicates, references and host actions.

use super::GuideText;

pub(super) const INVALID_PACKAGE_SELECTOR: GuideText = GuideText {
    meaning: "An operation names a package id that the project does not have at that \
            point of the batch. Packages are identified by their id (8 letters and digits such \
            as `a9lkf94s`), not by their folder name. This code is used where the package \
            itself is the target: package settings, renaming or removing a package, and the \
            package that an added resource or component goes into or a component moves to.",
    confirm: "The issue's `path` says which field (for example \
            `operations[0].selector.packageId` or `operations[0].toPackageId`). \
            `openfairygui_backend_get_project_outline` lists `packages[].id` with their \
            names.",
    fix: "Copy the id from the outline. If `addPackage` creates the package in the same \
            batch, put it earlier. If an earlier operation of the batch removes or replaces \
            it, reorder the operations or drop one of them.",
};

pub(super) const INVALID_COMPONENT_SELECTOR: GuideText = GuideText {
    meaning: "An operation names a component that does not exist, or the id belongs to a \
            resource that is not a component (an image, a sound, …). In FairyGUI a component \
            is an `.xml` resource of a package; its display list, controllers and transitions \
            live inside it. A missing package in a component selector is reported with this \
            code too.",
    confirm: "In `openfairygui_backend_get_project_outline`, find the package and a \
            resource with `kind: \"component\"`: `componentResourceId` is that resource's `id`, \
            not its name or file name. `openfairygui_backend_query_entity` with kind \
            `component` confirms it.",
    fix: "Use the component's resource id from the outline. If `addComponent` creates it \
            in the same batch, keep that operation earlier. If the id belongs to an image or \
            another asset, use the resource operations instead.",
};

pub(super) const INVALID_RESOURCE_SELECTOR: GuideText = GuideText {
    meaning: "An operation names a resource that the package does not have, or one of the \
            wrong kind for that operation (for example `setImageResourceProps` on a sound). \
            Resources are the items of a package's library: images, movie clips, sounds, \
            fonts, components and so on. A missing package in a resource selector is \
            reported with this code too.",
    confirm: "`openfairygui_backend_get_project_outline` lists each package's \
            `resources[]` with `id`, `name`, `kind` and `path`. \
            `openfairygui_backend_query_entity` with kind `resource` and selector \
            `{packageId, resourceId}` shows one resource's fields.",
    fix: "Use the resource's id (not its name or file name) in the right package, and an \
            operation that fits its kind. If the resource is added or removed earlier in the \
            batch, check the order.",
};

pub(super) const INVALID_DISPLAY_NODE_SELECTOR: GuideText = GuideText {
    meaning: "An operation names a display node that the component does not have at that \
            point of the batch, or `attachDisplayNode` brings a node whose id another element \
            of the component already uses. A display node is one object on a component's stage \
            (an image, a text, a loader, a list, an instance of another component such as a \
            button, …). Also raised when, after the batch, a controller action targets a node \
            that does not exist. A legacy `<swf>` element is kept in the file but not modeled: \
            its id counts as taken, and selecting it is refused with a message that says so.",
    confirm: "`openfairygui_backend_get_project_outline` shows each component's \
            `displayList[]` with `id`, `name` and `kind`; node ids look like `n12_abcd` and \
            are case-sensitive. The issue message lists the ids in use. \
            `openfairygui_backend_query_entity` with kind `component` shows \
            `unsupportedNodes`, the elements kept unmodeled.",
    fix: "Select nodes by `id`, not by name. When attaching, give the new node an id that \
            is not in the list (nor among `unsupportedNodes`). If the node is attached or \
            detached earlier in the same batch, check the order of the operations. An \
            unmodeled `<swf>` element can only be edited in the FairyGUI editor.",
};

pub(super) const INVALID_RESOURCE_FOLDER_SELECTOR: GuideText = GuideText {
    meaning: "An operation names a library folder that the package does not have on that \
            branch, or writes its path in a form that is not canonical. A folder is selected \
            by package, branch (`''` for the main branch) and a path such as \
            `/icons/buttons/`, with a slash at both ends; the package root `/` is not a \
            folder.",
    confirm: "`openfairygui_backend_get_project_outline` lists each package's `folders[]` \
            as `{branch, path}`. The issue message lists the folders that exist.",
    fix: "Copy `path` and `branch` from the outline. Create a missing folder with \
            `addResourceFolder` (parents first) earlier in the batch.",
};

pub(super) const INVALID_BRANCH_SELECTOR: GuideText = GuideText {
    meaning: "An operation names a branch that the project does not have. Branches are \
            FairyGUI's alternative sets of resources (for example per language or platform); \
            each lives in an `assets_<branch>/` folder beside `assets/`.",
    confirm: "`openfairygui_backend_get_project_outline` lists the project's `branches` \
            at the top level; names are case-sensitive.",
    fix: "Use a name from that list, or create the branch with `addBranch` earlier in the \
            batch.",
};

pub(super) const INVALID_GEAR_SELECTOR: GuideText = GuideText {
    meaning: "A gear operation names a gear that is not on the node at this point of the \
            batch, uses an unknown gear kind, or names a controller the component does not \
            have. A gear ties one property of a display node (visibility, position, size, \
            look, colour, animation, text, icon, font size) to the pages of a controller of \
            the same component. Gears are selected by node, `kind` and `controllerName`; the \
            look-gear operations also need `kind: \"look\"`. Also raised when a node being \
            attached brings gears for a controller the component does not have.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
            `gears[]`, each with its `kind` and `controllerName`. The outline lists the \
            component's `controllers[].name`.",
    fix: "To change or remove a gear, use the kind and controller of an existing one; to \
            create a gear, use `addGear` (or `addLookGear`). Add a missing controller with \
            `addController` earlier in the batch. The gear kinds are display, display2, look, \
            xy, size, color, animation, text, icon and fontSize.",
};

pub(super) const INVALID_LOOK_GEAR_SELECTOR: GuideText = GuideText {
    meaning: "Reserved for a look-gear selector that matches no gear. (A look gear sets a \
            node's alpha, rotation, grayed and touchable per controller page.) This server \
            reports that case as `invalid_gear_selector`, and upstream never raises this code \
            either; it is listed so that agents keying on it find a guide.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode`: look for a gear \
            with `kind: \"look\"` and the controller you named.",
    fix: "As for `invalid_gear_selector`: use `updateLookGear` or `removeLookGear` only on \
            an existing look gear for that controller, and create one with `addLookGear`.",
};

pub(super) const SELECTOR_AMBIGUITY: GuideText = GuideText {
    meaning: "A selector matches more than one thing, so the operation cannot know which \
            one to change. Ids are normally unique, but older or hand-edited projects can hold \
            two controllers or transitions with the same name, two nodes or resources with the \
            same id, or a node with two gears of one kind for the same controller. The whole \
            batch was refused; nothing changed.",
    confirm: "The issue message says what is duplicated and where. \
            `openfairygui_backend_validate_session` reports the project's duplicates \
            (`invalid_uam`, `duplicate_resource_id`, `duplicate_package_id`).",
    fix: "Remove the duplication first. Duplicated ids, and controllers or transitions \
            with the same name, are safest to fix in the FairyGUI editor (operations that \
            select them by the same name or id would be ambiguous too). For a node with \
            duplicated gears, query the node, then detach it and attach it again with one gear \
            per kind and controller, in one batch. Never pick one of the duplicates by \
            guessing.",
};

pub(super) const UNSUPPORTED_OPERATION: GuideText = GuideText {
    meaning: "The operation's `kind` is not one of the 41 operations. This server catches \
            an unknown kind earlier, when the request is decoded, and answers `invalid_input` \
            with the path of the bad operation; this code is listed for compatibility.",
    confirm: "The operation catalog `openfairygui://contracts/operations` lists every kind \
            with a description; `openfairygui://contracts/operations/{kind}` gives one kind's \
            schema.",
    fix: "Use a listed kind with exactly the fields its schema gives; unknown fields are \
            refused as well.",
};

pub(super) const TRANSACTION_UNSUPPORTED: GuideText = GuideText {
    meaning: "The batch was refused and nothing changed. This is the error of a refused \
            transaction as a whole: `error.issues` (and `meta.diagnostics`) list every problem \
            found, each with its own code (such as `invalid_display_node_selector`), the \
            operation's index (`opIndex`, plus `opId` if you set one) and the `path` of the \
            field at fault. Problems that only show on the batch's final state (a reference \
            left dangling) are listed against the operation that caused them.",
    confirm: "Send the same batch to `openfairygui_backend_preflight_transaction`: it \
            returns the same issues without changing anything. Each issue's code has its own \
            guide at `openfairygui://docs/diagnostics/{code}`.",
    fix: "Fix every listed issue, not only the first (the batch is all or nothing), then \
            preview again before applying. If the issues show that the batch was planned on \
            outdated information, re-read the outline and the entities first.",
};

pub(super) const UNSUPPORTED_DISPLAY_NODE_KIND: GuideText = GuideText {
    meaning: "Reserved for a display node kind that transactions cannot handle. All 18 \
            node kinds (image, text, richText, textInput, component, list, tree, graph, group, \
            loader, loader3D, movieClip, button, label, comboBox, progressBar, slider, \
            scrollBar) are supported here, so this server does not raise this code; an unknown \
            kind is refused as `invalid_input` when the request is decoded.",
    confirm: "`openfairygui_backend_get_capabilities` lists the node kinds that \
            transactions accept.",
    fix: "Use one of the listed kinds with the fields its schema gives \
            (`openfairygui://contracts/operations/attachDisplayNode`).",
};

pub(super) const UNSUPPORTED_CROSS_PACKAGE_IMAGE_REF: GuideText = GuideText {
    meaning: "An image node would show an image from another package. In FairyGUI an image \
            object on a component's stage can only use an image of the component's own \
            package; content from another package is shown through a loader (by its `ui://` \
            address) or inside an instance of a component of that package.",
    confirm: "The issue's `path` ends in `resource.packageId`. \
            `openfairygui_backend_get_project_outline` shows which package holds the image and \
            which holds the component.",
    fix: "Leave `resource.packageId` empty (or set it to the component's own package) and \
            choose an image of this package. To reuse an image from another package, use a \
            loader node whose `url` is the image's `ui://` address, or, if the user wants a \
            copy, add one to this package with `addResource`. The original image stays where \
            it is.",
};

pub(super) const UNSUPPORTED_GEAR_KIND: GuideText = GuideText {
    meaning: "Reserved for a gear kind that transactions cannot handle. All 10 gear kinds \
            (display, display2, look, xy, size, color, animation, text, icon, fontSize) are \
            supported here, so this server does not raise this code. An unknown kind in a gear \
            payload is refused as `invalid_input` when the request is decoded; an unknown kind \
            in a gear selector is `invalid_gear_selector`.",
    confirm: "`openfairygui_backend_get_capabilities` lists the gear kinds that \
            transactions accept.",
    fix: "Use one of the listed kinds, spelled exactly (for example `fontSize`, `xy`).",
};

pub(super) const UNSUPPORTED_RESOURCE_MUTATION: GuideText = GuideText {
    meaning: "The operation cannot change this resource the way it was asked: \
            `replaceResourceBytes` or `removeResource` on a component (components have no \
            asset file; they are edited through their content and removed with \
            `removeComponent`); renaming or moving a branch variant on its own (a variant must \
            keep the folder and file name of its main resource); or `replaceResourceBytes` on \
            an image stored as anything but `.png`, `.jpg` or `.jpeg`, such as an SVG.",
    confirm: "The issue's `resourceKind` and message say which case it is. \
            `openfairygui_backend_query_entity` with kind `resource` shows the resource's \
            `kind`, `branch` and file name.",
    fix: "For components, use `removeComponent`, `setComponentProps` and the display-node \
            operations. For a variant, rename or move its main resource (the one on the main \
            branch); the variants follow. An SVG image's file cannot be replaced through this \
            server; ask the user to update it in the FairyGUI editor.",
};

pub(super) const UNSUPPORTED_DISPLAY_NODE_MUTATION: GuideText = GuideText {
    meaning: "Reserved for an operation that cannot change a kind of display node at all. \
            Every node kind can be edited here (a field that a kind does not have is \
            `unsupported_display_node_field`), so this server does not raise this code.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
            `kind` and fields.",
    fix: "Use `setDisplayNodeProps` with fields that belong to the node's kind; see the \
            guide of `unsupported_display_node_field`.",
};

pub(super) const UNSUPPORTED_TEXT_FIELD_TARGET: GuideText = GuideText {
    meaning: "Text fields (the `text`, `font`, `fontSize` or `color` shortcuts of \
            `setDisplayNodeProps`, or a `textProperties` snapshot) were sent to a node that \
            does not take them: only text, rich text and text input nodes take them all. A \
            component instance (a button or label on a stage) takes `text`, `color` and \
            `fontSize` as its title's, but not `font` or `textProperties`: its title is drawn \
            in its component's font.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
            `kind`; the issue's `path` names the key.",
    fix: "For a button or label instance (a `component` node) send `text` (its title), \
            or a partial `componentInstanceProperties` such as `{\"selectedTitle\": \"Off\"}`. \
            Changing the text node inside the button's own component instead changes every \
            instance of that button, so do that only when it is what the user wants.",
};

pub(super) const UNSUPPORTED_DISPLAY_NODE_FIELD: GuideText = GuideText {
    meaning: "A node gets a field that its kind does not have: a per-kind snapshot on the \
            wrong kind (such as `loaderProperties` on an image), `group` on a loader or \
            loader3D (those cannot be in a group), text-input fields (`promptText`, \
            `maxLength`, `restrict`, `password`, `keyboardType`) on a plain text node, \
            `demoText`-style fields on a rich text node, or tree fields on a list.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
            `kind` and current fields; the message names the snapshot key of that kind. The \
            schema `openfairygui://contracts/operations/setDisplayNodeProps` lists every key.",
    fix: "Send the snapshot that belongs to the node's kind (`imageProperties`, \
            `textProperties`, `loaderProperties`, `listProperties`, …) or only base fields \
            (position, size, alpha, visible, …). A node cannot change its kind; a node of \
            another kind is a new node, and replacing one is a design decision for the user.",
};

pub(super) const UNSUPPORTED_OPERATION_BATCH: GuideText = GuideText {
    meaning: "Operations that create, rename or remove whole branches, packages or \
            components may only share a batch with operations that naturally go with them: \
            adding or removing resources and folders, attaching and detaching nodes, and \
            `setDisplayNodeProps`. Anything else in the same batch (settings, resource renames \
            and moves, controllers, transitions, gears, component props, …) is refused, so \
            that big structural changes stay easy to review.",
    confirm: "Each refused operation has an issue at `operations[i].kind`.",
    fix: "Split the work into two transactions: the lifecycle batch with only its allowed \
            companions, and the other operations in a second batch at the next revision (or \
            the other way round when they must come first). Preview each.",
};

pub(super) const UNSUPPORTED_RESOURCE_KIND: GuideText = GuideText {
    meaning: "Two uses. In a transaction, `addResource` was given a component: components \
            are added with `addComponent`, which carries the component's model rather than \
            file bytes. In validation, a `package.xml` declares a resource with an element \
            this server does not know (a warning): that resource is skipped, so it is not in \
            the outline and cannot be edited here, but nothing on disk is touched.",
    confirm: "Transaction: the issue is at `operations[i].resource.kind`. Validation: \
            `openfairygui_backend_validate_session` shows the warning with the package and \
            the element's name; the FairyGUI editor shows the item in that package's library.",
    fix: "Use `addComponent` for components and `addResource` for image, sound, misc, \
            font, movieClip, spine and dragonBones files. Leave an unknown element in \
            `package.xml` alone (it may come from a newer editor or a plugin) and manage that \
            resource in the FairyGUI editor.",
};

pub(super) const INVALID_PROJECT_SETTINGS: GuideText = GuideText {
    meaning: "`updateProjectSettings` replaces all project settings (the files in \
            `settings/`: Publish, Common, Adaptation, CustomProperties and i18n) with the \
            snapshot sent, and that snapshot has a value of the wrong type: `publish`, \
            `common` or `adaptation` that is not an object, text where a number is expected \
            (or the reverse), `customProperties` that is not an object, `i18n.langFiles` that \
            is not a list of `{name, path}`, or a number that is not finite. `null` leaves a \
            field unset, and a field the project already holds with the wrong type may be sent \
            back as it is (validation reports it as a warning); only new mistakes are refused.",
    confirm: "The issue's `path` points at the value (for example \
            `settings.publish.path`). `openfairygui_backend_query_entity` with kind `project` \
            returns the current `settings` to compare with.",
    fix: "Query the current settings, change only what you mean to, and send the whole \
            object back: a section you leave out is removed. Keys you do not know are kept as \
            they are.",
};

pub(super) const INVALID_PACKAGE_SETTINGS: GuideText = GuideText {
    meaning: "The package settings (one package's compression and publish options, as in \
            the editor's package properties) sent with `updatePackageSettings` or inside \
            `addPackage` are not a complete, valid snapshot. Typical causes: a missing key \
            (the snapshot needs `compressPNG`, `jpegQuality` and `publish`, with every publish \
            field), `jpegQuality` outside 1..100, an unsafe publish name or an absolute \
            publish path, `maxAtlasSize` outside 1..16384, an atlas index that repeats or \
            exceeds `maxAtlasIndex`, or an excluded resource id with unusual characters. \
            `updatePackageSettings` refuses only problems the package did not have before; \
            validation reports the ones it has as warnings.",
    confirm: "The issue's `path` and `field` name the value. \
            `openfairygui_backend_query_entity` with kind `package` returns the current \
            `settings` in exactly the expected shape.",
    fix: "Start from the queried settings, change the values you need, and send the \
            complete object. Publish paths are relative to the project (they may lead out of \
            it with `..`, as real projects publish beside it), never absolute or with a drive \
            letter.",
};

pub(super) const INVALID_DISPLAY_NODE_PAYLOAD: GuideText = GuideText {
    meaning: "A value sent for a display node is out of range or incomplete; the issue's \
            `field` says which. Examples: alpha outside 0..1, a negative size, a `maxSize` \
            smaller than `minSize` (0 means no limit), a colour that is not `#rrggbb` or \
            `#rrggbbaa`, a font size below 1, a per-kind snapshot missing some of its fields, \
            text shortcuts mixed with a `textProperties` snapshot, or a node attached with an \
            empty id.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode` returns the node \
            in full, in the same shape the snapshots use. The schema \
            `openfairygui://contracts/operations/setDisplayNodeProps` gives each field's type.",
    fix: "Correct the value named by `field`. For a per-kind snapshot such as \
            `textProperties`, query the node, edit the fields you need and send the snapshot \
            complete. For a small change, the base fields or the text shortcuts on their own \
            are simpler.",
};

pub(super) const INVALID_RESOURCE_NAME: GuideText = GuideText {
    meaning: "The new name given to `renameResource` cannot be used. A resource's name is \
            its file name in the package folder (for a component, the name without `.xml`). \
            Refused: `/`, `\\` or `:` in the name, `.` or `..`, leading or trailing spaces, a \
            trailing dot, Windows device names (con, nul, com1, …), `package.xml`, a name that \
            another resource in the same folder already uses (letter case is ignored, as on \
            Windows and macOS disks), and a new extension that would change how an image is \
            read (PNG or JPEG versus SVG).",
    confirm: "The issue message says which rule. \
            `openfairygui_backend_get_project_outline` shows the names of the other resources \
            with the same `path`.",
    fix: "Choose another name. Send it without an extension to keep the current one \
            (`hero` keeps `hero.png`).",
};

pub(super) const INVALID_RESOURCE_PATH: GuideText = GuideText {
    meaning: "The folder given to `moveResource` (`toPath`) or to `addResource` \
            (`resource.path`) is not a usable library folder: it is not written as `/` or \
            `/a/b/`, has an unsafe part, does not exist in the package on that branch, or the \
            resource's file would clash there with another resource's file (letter case \
            ignored).",
    confirm: "`openfairygui_backend_get_project_outline` lists each package's `folders[]` \
            and the `path` of every resource.",
    fix: "Use `/` for the package root or an existing folder from the outline, written \
            with a slash at both ends. Create a missing folder with `addResourceFolder` \
            earlier in the same batch. On a clash, rename one of the two resources first, or \
            choose another folder.",
};

pub(super) const INVALID_RESOURCE_FOLDER_PATH: GuideText = GuideText {
    meaning: "A folder path or name cannot be used: `addResourceFolder` with a path that \
            is not canonical (`/a/b/`), is the root `/`, names a branch the project does not \
            have, or has no parent folder yet; `renameResourceFolder` with an unsafe name; or \
            `moveResourceFolder` to a destination that is not canonical, does not exist, or \
            lies inside the folder itself.",
    confirm: "The outline lists each package's `folders[]` and the project's `branches`; \
            the issue message names the missing parent or branch.",
    fix: "Write folders as `/parent/child/`. Create parents before children in the same \
            batch. Use `''` for the main branch, or create the branch with `addBranch` first.",
};

pub(super) const INVALID_RESOURCE_FOLDER_ATLAS: GuideText = GuideText {
    meaning: "The atlas given to a folder is not allowed. In FairyGUI a folder can send \
            its images to a particular texture atlas when the package is published: `''` means \
            no particular atlas; otherwise it is a slot number from 0 to the package's \
            `maxAtlasIndex` (10 unless the package's publish settings say otherwise), written \
            as plain digits.",
    confirm: "`openfairygui_backend_query_entity` with kind `package` shows the package's \
            publish settings, including `maxAtlasIndex`.",
    fix: "Use `''` or a slot within range, without sign or leading zeros (`3`, not `03`). \
            A higher slot needs a higher `maxAtlasIndex`, set with `updatePackageSettings` \
            earlier in the same batch; check with the user first, since it changes how the \
            package is published.",
};

pub(super) const INVALID_ATTACH_INDEX: GuideText = GuideText {
    meaning: "The `atIndex` of `attachDisplayNode` is past the end of the component's \
            display list. The display list is the stage's stacking order (index 0 is at the \
            back); the index may go from 0 to the number of nodes, and that number puts the \
            new node in front of all others.",
    confirm: "Count the component's `displayList` in \
            `openfairygui_backend_get_project_outline`, taking the batch's earlier attaches and \
            detaches into account.",
    fix: "Use an index between 0 and the list's length. To put a node just above or below \
            another node, use that node's position in the outline's list.",
};

pub(super) const INVALID_CONTROLLER_PAYLOAD: GuideText = GuideText {
    meaning: "A controller operation cannot be done as sent. A controller is a component's \
            state switch with pages (for example up, down and over for a button); gears and \
            actions react to its pages. Causes: the snapshot's `name` differs from the \
            selector's `controllerName`; no pages, or empty or repeated page ids; \
            `selectedIndex` out of range; a broken home-page rule (`homePage` is a page id for \
            `specific`, a key for `variable`, empty otherwise); an action naming pages that do \
            not exist; `addController` with a name already taken; `updateController` or \
            `removeController` for a controller that does not exist. Judged on the final state \
            of the batch: after `removeController`, gears or nodes (a list's page or selection \
            controller, a button's controller) still naming it; after `updateController`, \
            gears still using a page id it drops; an action that would play a transition the \
            component lacks (also when `removeTransition` removes one an action plays). \
            Problems the controller already had do not block an edit; only new ones do.",
    confirm: "`openfairygui_backend_query_entity` with kind `controller` returns the \
            controller in snapshot form; the outline lists the component's `controllers[]` \
            with their pages. Nodes that use it show it in `gears[].controllerName`, \
            `pageController`, `selectionController` or a button instance's `controller`. A \
            message starting with \"After the batch:\" names what still uses it.",
    fix: "Query the controller, edit the snapshot, and send it complete with `name` equal \
            to `controllerName`. To rename a page, change its `name` and keep its `id`, so the \
            gears keep working. Before removing a controller, remove the gears that use it \
            (`removeGear`, `removeLookGear`) and clear the node fields that name it \
            (`setDisplayNodeProps`), in the same batch, before or after the removal. Use \
            `addController` for a new name and `updateController` for an existing one.",
};

pub(super) const INVALID_TRANSITION_PAYLOAD: GuideText = GuideText {
    meaning: "A transition operation cannot be done as sent. A transition is a component's \
            timeline animation (moves, fades, colour changes, sounds, …). Causes: the \
            snapshot's `name` differs from the selector's `transitionName`; `updateTransition` \
            or `removeTransition` names a transition that does not exist; or, judged on the \
            final state of the batch, an item animates a node the component does not have, has \
            an `actionType` or `easeType` FairyGUI does not know, a negative `time` or \
            `duration`, an action this server does not know (`actionType` 16 with \
            `actionTypeName`) or an `actionTypeName` beside a known action, or the batch \
            detaches a node a transition animates. Items the transition already had that way \
            may stay (validation reports them); only new ones are refused.",
    confirm: "`openfairygui_backend_query_entity` with kind `transition` returns the \
            transition; the outline lists the component's `transitions[]` and the \
            `displayList` ids that items may target. `openfairygui_backend_validate_session` \
            lists the items already reported.",
    fix: "Query the transition, edit its items and send the snapshot complete, keeping \
            items you do not mean to change as they are (an item with `actionTypeName` keeps \
            it). Target nodes by id (`''` targets the component itself); use the action \
            numbers 0 to 15. Before detaching an animated node, drop or re-target its items in \
            the same batch. Use `addTransition` for a new name.",
};

pub(super) const INVALID_LOOK_GEAR_PAYLOAD: GuideText = GuideText {
    meaning: "Reserved for a look-gear payload that is not valid. This server reports \
            problems in look-gear payloads as `invalid_gear_payload`, as upstream does in \
            practice, so it does not raise this code.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the \
            node's gears, including its look gears.",
    fix: "See `invalid_gear_payload`: keep `kind` and `controllerName` equal to the \
            selector and name only page ids the controller has.",
};

pub(super) const INVALID_GEAR_PAYLOAD: GuideText = GuideText {
    meaning: "A gear sent with `addGear` or `updateGear` (or their look variants) does not \
            fit: its `kind` or `controllerName` differs from the selector; it names page ids \
            the controller does not have; a `display` gear has a `condition` (only `display2` \
            has one) or a `display2` condition is not `\"0\"` or `\"1\"`; a page value or the \
            `defaultValue` has the wrong shape for the gear's kind; `easeType` is outside \
            0..31; or a tween time is negative. Gears name controller pages by page id, not by \
            page name. Judged on the final state: a gear must fit its node as the FairyGUI \
            runtime applies it. Color, animation and fontSize gears on a node without that \
            property make the runtime fail building the node; text and icon gears on a node \
            without text or icon do nothing. Such a gear may not be added (also when attaching \
            a node); one the project already has may stay.",
    confirm: "`openfairygui_backend_query_entity` with kind `controller` shows the \
            controller's `pages[]` (id and name); with kind `displayNode`, the node's `kind` \
            and existing gears show which gears it has and the value shapes. A message \
            starting with \"After the batch:\" names the node and the gear kind it cannot \
            take.",
    fix: "Use page ids from the controller. Copy the value shape from an existing gear of \
            the same kind. Keep `kind` and `controllerName` equal to the selector. Use only \
            gear kinds the node can take: color on images, texts, graphs, loaders, movie \
            clips, buttons and labels; animation on loaders and movie clips; fontSize on \
            texts, buttons and labels; text and icon where the node shows one.",
};

pub(super) const INVALID_RESOURCE_PAYLOAD: GuideText = GuideText {
    meaning: "A resource value is not valid, or the batch would leave a new structural \
            problem. Direct causes: `setImageResourceProps` with an incomplete or out-of-range \
            image snapshot (quality 0..100, a nine-grid `[x, y, width, height]` when the \
            scaling is nine-grid, a tile grid index 0..31, …), or `addResource` with an empty \
            id, an unsafe file name, or image or movie clip fields out of range. Indirect \
            cause: after the batch, something it touched breaks a rule that held before, such \
            as a relation or a controller action pointing at a node the batch detaches; the \
            message then starts with \"After the batch:\".",
    confirm: "The issue's `path` points at the field, or at the operation blamed for an \
            after-the-batch problem. `openfairygui_backend_query_entity` with kind `resource` \
            returns an image's current `image` block.",
    fix: "Direct: send complete, in-range values, starting from the queried snapshot. \
            After the batch: add operations that repair what the batch breaks (re-point the \
            relation or action) or drop the operation that causes it.",
};

pub(super) const INVALID_RESOURCE_BYTES: GuideText = GuideText {
    meaning: "The file bytes sent with `replaceResourceBytes`, `addResource` or \
            `addPackage` cannot be used for that resource: they are empty, are not a PNG or a \
            JPEG, are a PNG where the image's file name says JPEG (or the reverse), or the \
            picture data is damaged (bad checksums, truncated data).",
    confirm: "The issue message says which check failed. \
            `openfairygui_backend_query_entity` with kind `resource` shows the image's file \
            name. A PNG starts with the bytes 137 80 78 71, a JPEG with 255 216.",
    fix: "Send the complete file, as base64 or as integers 0..255, in the format its file \
            name says. To switch a `.jpg` image to PNG data, rename it to a `.png` name with \
            `renameResource` earlier in the same batch, then replace the bytes.",
};

pub(super) const INVALID_MOVIE_CLIP_JTA: GuideText = GuideText {
    meaning: "The bytes sent for a movie clip are not a readable `.jta` file, FairyGUI's \
            movie clip format (versions 100 to 102). The `.jta` holds the frames and timing, \
            so a movie clip cannot be added or updated without a valid one.",
    confirm: "The issue is at the operation's `sourceBytes`. A `.jta` is produced by the \
            FairyGUI editor when a movie clip is created or imported; \
            `openfairygui_backend_read_resource_bytes` on an existing clip shows one.",
    fix: "Send the bytes of a `.jta` file saved by the FairyGUI editor. Other animation \
            formats (GIF, sprite sheets) have to be imported in the editor first.",
};

pub(super) const INVALID_RESOURCE_INDEX: GuideText = GuideText {
    meaning: "The `atIndex` of `addResource` is past the end of the package's resource \
            list. The index only sets the resource's position in that list; it has no visual \
            effect.",
    confirm: "Count the package's `resources[]` in \
            `openfairygui_backend_get_project_outline`, taking the batch's earlier additions \
            and removals into account.",
    fix: "Use 0 up to that count, or leave `atIndex` out to append.",
};

pub(super) const INVALID_BRANCH_NAME: GuideText = GuideText {
    meaning: "A branch name given to `addBranch` or `renameBranch` cannot be a folder \
            name. Each branch is stored in an `assets_<name>/` folder, so empty names, `.` or \
            `..`, `/`, `\\` or `:`, leading or trailing spaces, a trailing dot and Windows \
            device names are refused.",
    confirm: "The issue points at the branch name in the operation; `branches` in the \
            outline shows the existing names.",
    fix: "Choose a plain name such as `en`, `mobile` or `hd`.",
};

pub(super) const INVALID_PACKAGE_PAYLOAD: GuideText = GuideText {
    meaning: "The package given to `addPackage`, or the name given to `renamePackage`, \
            cannot be used: an empty or unusual id (package ids are short strings of letters \
            and digits such as `a9lkf94s`), a name that cannot be a folder name (a package is \
            the folder `assets/<name>/`), `branchNames` naming unknown or repeated branches, or \
            resources inside the package that break its rules (bad ids, folders the package \
            does not list, unsafe file names, variants that do not exist, bytes on a \
            component).",
    confirm: "Each issue's `path` points inside `operations[i].package` (or at \
            `newName`). The outline shows the existing packages and branches.",
    fix: "Fix the named field. Give a new package an id no other package uses and a \
            folder-safe name, and list its folders (parents first) for every resource path it \
            uses.",
};

pub(super) const INVALID_PACKAGE_INDEX: GuideText = GuideText {
    meaning: "The `atIndex` of `addPackage` is past the end of the project's package \
            list. The index only sets the package's position in that list.",
    confirm: "Count the entries of `packages[]` in \
            `openfairygui_backend_get_project_outline`, taking the batch's earlier \
            additions and removals into account.",
    fix: "Use 0 up to the number of packages.",
};

pub(super) const INVALID_COMPONENT_PAYLOAD: GuideText = GuideText {
    meaning: "A component sent with `addComponent`, or the props sent with \
            `setComponentProps`, are not valid. For `addComponent`: an empty or unusual id, a \
            name that cannot be a file name (the file is `<name>.xml`), a folder that does not \
            exist, a file path another resource already uses, variant slots naming components \
            that do not exist, `unsupportedNodes` (elements such as a legacy `<swf>` exist \
            only in the files that have them, so a new component cannot bring one), or \
            structural problems inside the component (repeated node ids, unknown group or \
            relation targets, …). For `setComponentProps`: empty props, a negative or \
            fractional size, or an incomplete `properties` snapshot (overflow, scrolling, \
            margins, the Button or Label extension, …).",
    confirm: "The issue's `path` points at the field. `openfairygui_backend_query_entity` \
            with kind `component` returns `size`, `properties` and `customData` in the \
            expected shape.",
    fix: "For `setComponentProps`, query the component, edit `properties` and send the \
            complete snapshot, or send only `size`. For `addComponent`, fix the named field, \
            leave `unsupportedNodes` out, and add a missing folder with `addResourceFolder` \
            earlier in the batch.",
};

pub(super) const INVALID_COMPONENT_INDEX: GuideText = GuideText {
    meaning: "The `atIndex` of `addComponent` or the `toIndex` of `moveComponent` is past \
            the end of the target package's resource list (components and other resources \
            share one list). The index only sets the position in that list.",
    confirm: "Count the target package's `resources[]` in the outline.",
    fix: "Use 0 up to that count.",
};

pub(super) const INVALID_COMPONENT_MOVE: GuideText = GuideText {
    meaning: "`moveComponent` cannot move this component to that package: the target is \
            the package it is already in (to change its folder, use `moveResource`), the \
            component is a branch variant or still has branch variants, the target package \
            lacks the component's folder, or another resource of the target package already \
            uses the same file path.",
    confirm: "`openfairygui_backend_query_entity` with kind `resource` shows the \
            component's `branch`, `branchItemIds` and `path`; the outline shows the target \
            package's folders and resources.",
    fix: "Choose another package, or use `moveResource` within the package. Create the \
            folder in the target package with `addResourceFolder` earlier in the batch. A \
            component with variants can only move after its variants are removed, which \
            discards them; do that only if the user agrees. Often the better choice is to keep \
            the component where it is and use instances of it from the other package.",
};

pub(super) const INVALID_UAM: GuideText = GuideText {
    meaning: "The project model breaks a structural rule. This comes from \
            `openfairygui_backend_validate_session` and usually describes the project as it is \
            on disk. Errors: repeated node ids or controller names in a component; a node in a \
            group that is not a group node; a relation, controller action or gear pointing at \
            a node, page or controller that does not exist; a controller selecting a page it \
            does not have; a nine-grid image without a grid; folders on unknown branches or \
            without their parent folder; a component that instantiates itself, directly or \
            through other components (instances, loader URLs, list items, combo box dropdowns, \
            scroll bars), or a group that belongs to itself through other groups, which the \
            FairyGUI editor and runtime would build forever; a color, animation or fontSize \
            gear on a node that cannot take it (the runtime fails building it); a transition \
            item with an `actionTypeName` beside a known action. Warnings, since the runtime \
            skips them: a transition item animating a missing node, a play action naming a \
            missing transition, a node naming a controller (page controller, selection \
            controller, a button's controller or page) the component does not have, and a text \
            or icon gear on a node without text or icon. Transactions do not return this code; \
            a structural problem a batch would introduce is reported with the code of what it \
            is about (`invalid_component_reference` for cycles, `invalid_group_reference`, \
            `invalid_gear_payload`, `invalid_controller_payload`, \
            `invalid_transition_payload`, `invalid_resource_payload`).",
    confirm: "Each finding has a model `path` (for example \
            `packages[2].resources[5].component.displayList[3].group`) plus `packageId`, \
            `resourceId`, `nodeId` and `sourcePath` (the component's XML file). Open that \
            component in the FairyGUI editor, or query the node or controller with \
            `openfairygui_backend_query_entity`.",
    fix: "Fix what the message names: re-point the relation, action or gear to a node or \
            page that exists (`setDisplayNodeProps`, `updateController`, `updateGear`), or \
            remove the dangling link; break a cycle by re-pointing or detaching one of the \
            instances, or by clearing one group; remove a gear its node cannot take \
            (`removeGear`). Repeated ids and names are safest to fix in the FairyGUI editor, \
            because operations selecting them would be ambiguous. Warnings need no fix unless \
            the behaviour they describe is not what the user wants.",
};

pub(super) const PROJECT_SETTINGS_UNCHANGED: GuideText = GuideText {
    meaning: "`updateProjectSettings` sent exactly the settings the project already has \
            (key order does not matter, and a missing publish, common or adaptation section \
            counts as empty). An edit that changes nothing is refused, so the revision does \
            not move for nothing.",
    confirm: "`openfairygui_backend_query_entity` with kind `project` shows the current \
            `settings`.",
    fix: "Re-read the settings. If your change is already there, drop the operation; \
            otherwise send the snapshot with the change actually made.",
};

pub(super) const PACKAGE_SETTINGS_UNCHANGED: GuideText = GuideText {
    meaning: "`updatePackageSettings` sent exactly the package settings the package \
            already has (the order of atlases does not matter). An edit that changes nothing \
            is refused.",
    confirm: "`openfairygui_backend_query_entity` with kind `package` shows the current \
            `settings`.",
    fix: "Re-read the settings. If your change is already there, drop the operation; \
            otherwise send the snapshot with the change actually made.",
};

pub(super) const DISPLAY_NODE_PROPS_UNCHANGED: GuideText = GuideText {
    meaning: "`setDisplayNodeProps` would leave the node exactly as it is: every value \
            sent equals the current one. Often an earlier edit already made the change, or the \
            batch was planned from stale data.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode` shows the node's \
            current values.",
    fix: "Re-query the node. If it already looks the way you want, drop the operation; \
            otherwise send only the fields whose values differ.",
};

pub(super) const RESOURCE_FOLDER_ATLAS_UNCHANGED: GuideText = GuideText {
    meaning: "`setResourceFolderAtlas` sets the atlas the folder already has.",
    confirm: "`openfairygui_backend_read_session_state` returns the model, where the \
            package's `folders[]` show each folder's `atlas`.",
    fix: "Drop the operation if the folder already uses the atlas you want; send `''` to \
            clear it, or another slot to change it.",
};

pub(super) const DUPLICATE_LOOK_GEAR_CONTROLLER: GuideText = GuideText {
    meaning: "The node already has a look gear for this controller, or a node being \
            attached brings two. A node has at most one gear of each kind per controller; the \
            look gear sets alpha, rotation, grayed and touchable per page.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode`: `gears[]` shows \
            the existing look gear and its controller.",
    fix: "Change the existing gear with `updateLookGear` instead of adding a second one, \
            or bind the new gear to another controller.",
};

pub(super) const DUPLICATE_TRANSITION_NAME: GuideText = GuideText {
    meaning: "`addTransition` uses a name that another transition of the component already \
            has. Transitions are played by name (from game code and from controller actions), \
            so names must be unique within a component.",
    confirm: "The outline lists the component's `transitions[].name`.",
    fix: "Use `updateTransition` to change the existing transition, or choose a new name.",
};

pub(super) const DUPLICATE_LOOK_GEAR_STATE_PAGE: GuideText = GuideText {
    meaning: "A look gear lists the same controller page more than once in its `states`, \
            so the node's look on that page would be ambiguous.",
    confirm: "The issue's `path` points at the repeated entry of the gear's `states`.",
    fix: "Give each page at most one entry; a page without an entry uses the gear's \
            `defaultValue`.",
};

pub(super) const DUPLICATE_GEAR_CONTROLLER: GuideText = GuideText {
    meaning: "The node already has a gear of this kind for this controller, or a node \
            being attached brings two. A node has at most one gear of each kind per \
            controller.",
    confirm: "`openfairygui_backend_query_entity` with kind `displayNode`: `gears[]` shows \
            the existing gear with its `kind` and `controllerName`.",
    fix: "Change the existing gear with `updateGear` instead of adding a second one, or \
            bind the new gear to another controller.",
};

pub(super) const DUPLICATE_GEAR_STATE_PAGE: GuideText = GuideText {
    meaning: "A gear lists the same controller page more than once (in its `states`, or \
            in the pages a display gear shows the node on).",
    confirm: "The issue's `path` points at the repeated entry.",
    fix: "List each page once. For value gears, a page without an entry uses the gear's \
            `defaultValue`.",
};

pub(super) const DUPLICATE_BRANCH_NAME: GuideText = GuideText {
    meaning: "`addBranch` or `renameBranch` uses the name of an existing branch, or one \
            that differs from it only in letter case (the branch folders `assets_<name>` would \
            be the same folder on Windows and macOS disks).",
    confirm: "`openfairygui_backend_get_project_outline` lists the project's `branches`; \
            the message names the branch it collides with.",
    fix: "Choose a name that differs by more than letter case, or use the existing branch.",
};

pub(super) const DUPLICATE_COMPONENT_ID: GuideText = GuideText {
    meaning: "`addComponent` brings a component whose id another resource of the package \
            already uses, or `moveComponent` moves a component into a package that already has \
            a resource with its id. Within a package every resource (component, image, sound, \
            …) needs its own id, because a `ui://` address is made of the package id and the \
            resource id.",
    confirm: "The outline lists the package's `resources[].id`; the message names the \
            resource that has the id.",
    fix: "Give a new component an id nobody uses (the editor uses short strings of \
            letters and digits such as `kn7w0`). A moved component keeps its id, so for a move \
            keep the component where it is, or ask the user how to resolve the clash in the \
            FairyGUI editor.",
};

pub(super) const RESOURCE_FOLDER_CONFLICT: GuideText = GuideText {
    meaning: "The folder path is already taken: by another folder (`addResourceFolder`, \
            `moveResourceFolder`, or `renameResourceFolder` to its current name), or by a \
            resource file of the same name in the same place (a folder `/icons/` and a file \
            `icons` cannot coexist on disk). Also raised when adding, renaming or moving a \
            resource would put its file where a folder is.",
    confirm: "The outline lists the package's `folders[]` and each resource's `name` and \
            `path`; the message names what is in the way.",
    fix: "Choose another folder name or destination. If the folder you wanted to add \
            already exists, just use it.",
};

pub(super) const DUPLICATE_RESOURCE_ID: GuideText = GuideText {
    meaning: "Two resources of one package share an id. In a transaction, `addResource` \
            (or a resource inside `addPackage`) brings an id the package already uses. In \
            validation, the package's `package.xml` declares the same id twice, so `ui://` \
            references to that id become ambiguous. When the two entries are identical (the \
            same element repeated, usually by a merge), it is one entry too many for one \
            resource and its file; otherwise two different resources share the id, which the \
            editor does not do on its own (it comes from a merge or a hand edit).",
    confirm: "Transaction: the outline lists the package's resource ids. Validation: the \
            finding gives `packageId`, `resourceId` and the `sourcePath` of `package.xml`, and \
            its message says whether the entries are identical; search that file for the id.",
    fix: "Transaction: choose an unused id. Validation, identical entries: delete the \
            repeated entry from `package.xml` (the resource's file stays). Validation, \
            different resources: ask the user to resolve the duplicate in the FairyGUI editor \
            or in `package.xml`, by giving one of the two entries a new id and updating what \
            refers to it. Both resources' files stay.",
};

pub(super) const DUPLICATE_PACKAGE_ID: GuideText = GuideText {
    meaning: "Two packages share an id. The package id is the first part of every `ui://` \
            address, so references become ambiguous. In a transaction, `addPackage` brings an \
            id already in use; in validation, two `package.xml` files carry the same `id`, \
            typically because a package folder was copied by hand.",
    confirm: "The finding's path is `packages[i].id`; the outline shows both packages \
            with the same `id` and their names.",
    fix: "Transaction: use a new id. Validation: ask the user which package is the copy. \
            Its id (the `id` of its `package.xml`) has to change, and references that mean \
            the copy must follow; that is an edit for the user to make, outside this server. \
            Keep both packages' files as they are meanwhile.",
};

pub(super) const DUPLICATE_PACKAGE_NAME: GuideText = GuideText {
    meaning: "Two packages would have the same name, and a package's name is its folder \
            under `assets/`. In a transaction, `addPackage` or `renamePackage` uses a name \
            already taken (here also when the names differ only in letter case). In \
            validation, it is reported for a model whose packages share a name; on disk two \
            folders cannot, and names that differ only in case are `path_collision`.",
    confirm: "The outline lists `packages[].name`; the message names the other package.",
    fix: "Choose a name that differs from every package name by more than letter case.",
};

pub(super) const RESOURCE_FOLDER_NOT_EMPTY: GuideText = GuideText {
    meaning: "`renameResourceFolder`, `moveResourceFolder` and `removeResourceFolder` work \
            only on empty folders, and this folder still holds subfolders or resources. Every \
            library item records its own folder path, so a folder is only renamed or moved \
            once its contents have been moved.",
    confirm: "The outline lists the package's `folders[]` and each resource's `path`; the \
            message names what is inside.",
    fix: "Move the contents first, in the same batch: create the destination folder with \
            `addResourceFolder`, move each resource with `moveResource` and each subfolder \
            with `moveResourceFolder`, then rename, move or remove the emptied folder. Do not \
            remove resources just to empty a folder: removing a resource drops its file from \
            the project, so only do it when the user asks for it.",
};

pub(super) const BRANCH_NOT_EMPTY: GuideText = GuideText {
    meaning: "`removeBranch` is refused because folders or resources still live on that \
            branch (in `assets_<branch>/`).",
    confirm: "The outline lists folders and resources with their `branch`; the message \
            names what is still there.",
    fix: "Removing a branch means removing its variant resources, which drops their files \
            from the project. Ask the user first. If they agree, remove the variants \
            (`removeResource`, `removeComponent`) and the branch's folders \
            (`removeResourceFolder`) earlier in the same batch; otherwise keep the branch.",
};

pub(super) const BRANCH_REFERENCED: GuideText = GuideText {
    meaning: "`removeBranch` is refused because main resources still map variants on that \
            branch: their `branchItemIds` slot for the branch is filled. In FairyGUI a \
            resource can have one variant per branch, such as a translated image.",
    confirm: "`openfairygui_backend_query_entity` with kind `resource` shows `branch` and \
            `branchItemIds`; the message names the resources still mapped.",
    fix: "Removing a variant resource clears its slot, but it also drops the variant's \
            file from the project, so only with the user's agreement; otherwise keep the \
            branch.",
};

pub(super) const INVALID_RESOURCE_REFERENCE: GuideText = GuideText {
    meaning: "After the batch, something would point at a resource that does not exist or \
            is of the wrong kind: an image node at a missing image or at a sound, a \
            component's scroll bar, header or footer at something that is not a component, a \
            sound setting at something that is not a sound, a `ui://` address in text, gears, \
            transitions or the project settings that resolves to nothing, or anything still \
            using a resource that `removeResource` removes. References that were already \
            broken before the batch do not block it; only new ones do.",
    confirm: "The message names the referring node, property or setting and the resource. \
            `openfairygui_backend_get_project_outline` shows which resources exist and their \
            kinds; `openfairygui_backend_validate_session` lists the references already broken \
            in the project.",
    fix: "Point the reference at an existing resource of the right kind (add it with \
            `addResource` earlier in the batch if needed). When removing a resource, re-point \
            or detach what uses it in the same batch, or keep the resource.",
};

pub(super) const INVALID_COMPONENT_REFERENCE: GuideText = GuideText {
    meaning: "A component instance node (another component placed on the stage, such as a \
            button) would refer, after the batch, to a component that does not exist or to a \
            resource that is not a component, or the batch would make a component contain \
            itself: directly, or through other components, by instances, loader URLs, list \
            items and default items, combo box dropdowns or the scroll bars, header and footer \
            of a scrolling pane. The FairyGUI editor and runtime would build such a component \
            forever. Cycles the project already has do not block an edit (validation reports \
            them as `invalid_uam`); the batch may not create one.",
    confirm: "The outline lists each package's resources with `kind: \"component\"`; the \
            issue's `path` ends in the node's `resource` or `src`, or names the field that \
            closes the cycle. Its message names the components in the cycle.",
    fix: "Reference an existing component by id (with `packageId` when it is in another \
            package), or create it with `addComponent` earlier in the batch. To place content \
            that would close a cycle, use another component that does not contain this one.",
};

pub(super) const INVALID_GROUP_REFERENCE: GuideText = GuideText {
    meaning: "A node's `group` must be `''` (no group) or the id of another node of kind \
            `group` in the same component; FairyGUI groups gather nodes of one stage so they \
            can be moved and shown together. Raised, on the final state of the batch, when the \
            group does not exist, is not a group node, is the node itself, when groups would \
            belong to each other in a ring (the editor and runtime would walk them forever), \
            or when a batch detaches a group that still has members.",
    confirm: "The outline's `displayList` shows the nodes of kind `group`; \
            `openfairygui_backend_query_entity` with kind `displayNode` shows a node's \
            `group`.",
    fix: "Set `group` to an existing group node's id or to `''`. Attach a new group node \
            before or after assigning members to it in the same batch. Do not put a group into \
            one of its own members. Before detaching a group, set its members' `group` to `''` \
            (or another group) in the same batch.",
};

pub(super) const PACKAGE_REFERENCED: GuideText = GuideText {
    meaning: "`removePackage` is refused because, after the batch, other packages or the \
            project settings would still use this package's resources (component instances, \
            images shown by `ui://` address, fonts, sounds, the default scroll bars, …).",
    confirm: "The issue message quotes what still refers to the package. \
            `openfairygui_backend_read_session_state` returns the whole model, where the \
            package id appears in every `packageId` and `ui://` address that uses it.",
    fix: "Removing a package drops its folder and everything in it from the project, so \
            confirm with the user first. If they agree, re-point or detach the references in \
            the same batch (`updateProjectSettings` for a setting); otherwise keep the \
            package.",
};

pub(super) const COMPONENT_REFERENCED: GuideText = GuideText {
    meaning: "`removeComponent` or `moveComponent` is refused because, after the batch, \
            something would still refer to the component where it was: instances of it on \
            other stages, a list's default item, a scroll bar setting of a component or of the \
            project settings, a `ui://` address.",
    confirm: "The issue message quotes what still refers to the component. \
            `openfairygui_backend_read_session_state` returns the whole model to search for \
            its id.",
    fix: "For a move, re-point those references to the new package in the same batch. For \
            a removal, re-point or detach them only if the user really wants the component \
            gone; otherwise keep it.",
};

pub(super) const COMPONENT_HAS_PACKAGE_DEPENDENCIES: GuideText = GuideText {
    meaning: "`moveComponent` would move a component whose nodes still use resources of \
            its old package by naming that package explicitly. After the move they would \
            reach back into the old package, and image nodes may only use images of their \
            own package.",
    confirm: "The message lists the nodes and fields. \
            `openfairygui_backend_query_entity` with kind `displayNode` on those nodes shows \
            their `resource.packageId`.",
    fix: "Often the simplest fix is to leave the component where it is and use instances \
            of it from the other package. Otherwise, in the same batch, re-point those nodes \
            to resources of the target package (adding copies there with `addResource` if the \
            user wants).",
};

pub(super) const UNAVAILABLE_RESOURCE_SOURCE_BYTES: GuideText = GuideText {
    meaning: "The operation needs an asset's file bytes and does not have them. Either the \
            resource's file was missing or unreadable when the project was opened, so it \
            cannot be renamed, moved, removed or have its bytes replaced (the server never \
            holds a file it could not read); or `addResource` or `addPackage` carries an asset \
            without `sourceBytes`.",
    confirm: "For an existing resource, `openfairygui_backend_validate_session` shows its \
            file as `missing_source` or `unreadable_source`, and \
            `openfairygui_backend_read_resource_bytes` fails with `bytes_unavailable`. For an \
            added asset, the issue's `path` ends in `sourceBytes`.",
    fix: "For an existing resource, stop and tell the user which file is missing or \
            unreadable; they can restore it on disk (then the session must be closed and the \
            project reopened) or deal with the resource in the FairyGUI editor. For an added \
            asset, include the file's bytes, as base64 or integers 0..255.",
};

pub(super) const PROJECTION_FAILED: GuideText = GuideText {
    meaning: "In upstream, the batch could not be run on a copy of the project to work out \
            its effect: an internal failure, not a problem with the batch. This server runs \
            every batch on a copy of the model and does not raise this code; \
            `transaction_preview_failed` keeps `projection_failed` only as a reserved reason.",
    confirm: "If it ever appears, `meta.requestId` identifies the call in the server's \
            log.",
    fix: "Report it to the user with the batch and the request id. Retrying the same \
            batch will not help.",
};

pub(super) const EXECUTION_FAILURE: GuideText = GuideText {
    meaning: "In upstream, the batch failed while being applied, after its checks had \
            passed, and nothing changed. This server checks every rule before anything is \
            committed and swaps in the result only when the whole batch is valid, so problems \
            come back as `transaction_unsupported` with their issues; it does not raise this \
            code.",
    confirm: "If it ever appears, the error's issues say what failed and `meta.requestId` \
            identifies the call in the server's log.",
    fix: "Report it with the batch, then re-read the outline before planning again.",
};
